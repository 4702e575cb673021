// Package web is `sudokuar serve`: the game in the browser and its JSON
// API. It is the only package that speaks HTTP.
//
// In: a store.Store for games and results, and the pipeline options for
// photos and the camera. Out: an http.Handler serving the pages (Home,
// Play, Today's puzzle, Play with friends, Kakuro, Enter a puzzle, Upload
// a photo, Camera, Leaderboard, Statistics), their static files
// (embedded, plain HTML, CSS and JavaScript modules with no build step;
// the player's settings, theme included, live in the browser), the JSON
// API under /api/ that the pages use and scripts can call, and the
// camera's and the rooms' WebSockets.
//
// Handlers are thin: they decode a request, call one function that knows
// nothing of HTTP (games.go and kakuro_games.go for play, with package
// play's rules of mistakes, assists and the daily puzzle; the engine's
// packages for the rest) and encode the answer. Every error a client can cause is a JSON
// {"error": "..."} with a 4xx status; nothing a client sends reaches the
// file system.
//
// Adding to it: a page is a template in templates/ (layout.html wraps it),
// a name in pageNames and a route in routes(); its script goes in
// static/js as a module and talks to /api/ through api.js. Multiplayer
// rooms plug in the same way: their routes and a WebSocket handler beside
// /ws/camera, the room logic in package rooms. Kakuro games store their
// results with store.KindKakuro, so the leaderboard queries keep the two
// apart.
package web
