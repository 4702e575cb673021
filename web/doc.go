// Package web is `sudokuar serve`, the only package that speaks HTTP.
//
// In: a store.Store and the pipeline's options. Out: an http.Handler for the
// pages (templates/, static files embedded, JavaScript modules without a
// build step), the JSON API under /api/ (docs/api.md) and the camera and
// rooms WebSockets. Handlers are thin: decode, call one function that knows
// nothing of HTTP (sessions: games.go, kakuro_games.go), encode; a client's
// error is a JSON {"error"} with a 4xx. A page: template, pageNames, route.
package web
