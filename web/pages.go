package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/sudokuar/sudokuar/rooms"
	"github.com/sudokuar/sudokuar/store"
)

//go:embed templates static
var files embed.FS

// asset is one embedded static file with its content hash.
type asset struct {
	body  []byte
	hash  string // first 12 hex digits of its SHA-256
	ctype string
}

// assets serves web/static from memory. A URL carrying the file's hash
// (?v=…, as the templates write it) may be cached for a year; without it
// the browser revalidates with the ETag. Only names in the embedded set
// are served: a request path never reaches the file system.
type assets struct {
	byName map[string]asset // "css/app.css"
}

func loadAssets() (*assets, error) {
	a := &assets{byName: map[string]asset{}}
	err := fs.WalkDir(files, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		ctype := mime.TypeByExtension(path.Ext(p))
		if strings.HasSuffix(p, ".js") {
			ctype = "text/javascript; charset=utf-8"
		}
		a.byName[strings.TrimPrefix(p, "static/")] = asset{body: b, hash: hex.EncodeToString(sum[:6]), ctype: ctype}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("web: embedded files: %w", err)
	}
	return a, nil
}

// url is the address of a static file, with its hash for caching.
func (a *assets) url(name string) (string, error) {
	f, ok := a.byName[name]
	if !ok {
		return "", fmt.Errorf("no static file %q", name)
	}
	return "/static/" + name + "?v=" + f.hash, nil
}

func (a *assets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/static/")
	f, ok := a.byName[name]
	if !ok {
		http.Error(w, "no such file", http.StatusNotFound)
		return
	}
	a.serve(w, r, f)
}

func (a *assets) favicon(w http.ResponseWriter, r *http.Request) {
	a.serve(w, r, a.byName["icon.svg"])
}

func (a *assets) serve(w http.ResponseWriter, r *http.Request, f asset) {
	etag := `"` + f.hash + `"`
	h := w.Header()
	h.Set("ETag", etag)
	if r.URL.Query().Get("v") == f.hash {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	if f.ctype != "" {
		h.Set("Content-Type", f.ctype)
	}
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.body))
}

// pageNames lists the page templates; each is layout.html plus its own file.
var pageNames = []string{"home", "play", "daily", "enter", "upload", "camera", "leaderboard", "stats", "notfound", "rooms", "kakuro", "kakuro-solve"}

func parsePages(a *assets) (map[string]*template.Template, error) {
	funcs := template.FuncMap{
		"asset":     a.url,
		"duration":  formatMillis,
		"levels":    func() []string { return levels },
		"sizes":     func() []int { return []int{4, 6, 9, 16} },
		"add1":      func(i int) int { return i + 1 },
		"maxLevel":  maxLevel,
		"levelNote": func(l string) string { return levelNotes[l] },
		"modes":     func() []string { return []string{store.ModeSolo, store.ModeRace, store.ModeCoop} },
		"modeName":  func(m string) string { return modeNames[m] },
		"roomSizes": roomSizes,
		// sizeLabel writes a stored size ("9x9") as the pages do ("9×9").
		"sizeLabel": func(size string) string { return strings.Replace(size, "x", "×", 1) },
	}
	layout, err := template.New("layout.html").Funcs(funcs).ParseFS(files, "templates/layout.html")
	if err != nil {
		return nil, fmt.Errorf("web: templates: %w", err)
	}
	pages := map[string]*template.Template{}
	for _, name := range pageNames {
		t, err := template.Must(layout.Clone()).ParseFS(files, "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("web: template %s: %w", name, err)
		}
		pages[name] = t
	}
	return pages, nil
}

// levelNotes say in a few plain words what each level asks of the player
// (the logic engine's bands, see logic.Level), without the techniques'
// jargon: a player who does not know "claiming" still knows what to expect.
var levelNotes = map[string]string{
	"easy":    "a cell with one digit left, a digit with one place left",
	"medium":  "a digit locked into one line of a box",
	"hard":    "pairs, triples and patterns across lines",
	"expert":  "rectangles that would give two solutions, cell groups that nearly lock",
	"extreme": "long if-then chains",
}

// roomSize is a board size a room offers, with its hardest level.
type roomSize struct {
	N   int
	Max string
}

func roomSizes() []roomSize {
	var out []roomSize
	for _, n := range rooms.Sizes {
		out = append(out, roomSize{N: n, Max: rooms.MaxLevel(n).String()})
	}
	return out
}

// modeNames are the modes as the pages say them.
var modeNames = map[string]string{store.ModeSolo: "Solo", store.ModeRace: "Race", store.ModeCoop: "Co-op", "": "Solo"}

// pageData is what every page template gets.
type pageData struct {
	Title string // the page's own title
	Nav   string // which menu entry is current
	Data  any    // the page's own data
}

var pageTitles = map[string]string{
	"home": "Sudoku", "play": "Play", "enter": "Enter a puzzle", "upload": "Upload a photo",
	"camera": "Camera", "leaderboard": "Leaderboard", "notfound": "Not found",
	"daily": "Today's puzzle", "stats": "Statistics",
	"rooms":  "Play with friends",
	"kakuro": "Kakuro", "kakuro-solve": "Solve a Kakuro",
}

// page returns a handler rendering a page that needs no server data (its
// script asks the API).
func (s *Server) page(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if name == "play" || name == "daily" {
			s.player(w, r) // games belong to a browser from its first visit
		}
		s.render(w, r, http.StatusOK, name, nil)
	}
}

func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	var buf bytes.Buffer
	if err := s.pages[name].ExecuteTemplate(&buf, "layout.html", pageData{Title: pageTitles[name], Nav: name, Data: data}); err != nil {
		s.log.Error("render page", "page", name, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes()) // the status is sent: a client gone away cannot be told
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusNotFound, "notfound", r.URL.Path)
}

// leaderboardData is the leaderboard page's data.
type leaderboardData struct {
	Size, Level string
	Mode        string // solo, race, coop
	Daily       string // the daily puzzle's day, when its board is shown
	Best        []store.Result
	Mine        []store.Result
	Matches     []publicMatch // this browser's multiplayer games
	Error       string
}

func (s *Server) leaderboardPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	d := leaderboardData{Size: q.Get("size"), Level: q.Get("level"), Mode: store.ModeSolo}
	if d.Size == "" {
		d.Size = "9"
	}
	if d.Level == "" {
		d.Level = "easy"
	}
	board, err := s.leaderboardOf(r.Context(), q.Has("daily"), q.Get("daily"), d.Size, d.Level, q.Get("mode"))
	status := http.StatusOK
	if err != nil {
		d.Error, status = err.Error(), http.StatusBadRequest
	} else {
		d.Size, _, _ = strings.Cut(board.Size, "x")
		d.Level, d.Mode, d.Daily = board.Level, modeOrSolo(board.Mode), board.Daily
		if d.Best, err = s.store.Leaderboard(r.Context(), board, 20); err != nil {
			s.log.Error("leaderboard", "err", err)
			d.Error, status = "the leaderboard cannot be read right now", http.StatusInternalServerError
		}
	}
	if c, err := r.Cookie(playerCookie); err == nil && validID(c.Value) {
		d.Mine, _ = s.store.History(r.Context(), c.Value, 20)
		if ms, err := s.store.PlayerMatches(r.Context(), c.Value, 10); err == nil {
			d.Matches = publicMatches(ms, c.Value)
		}
	}
	s.render(w, r, status, "leaderboard", d)
}

// leaderboardOf names the board a leaderboard page asks for: a daily
// puzzle's (daily set: its day, or "today"), or a size, level and mode's.
func (s *Server) leaderboardOf(ctx context.Context, daily bool, day, size, level, mode string) (store.Board, error) {
	if daily {
		return s.dailyBoard(ctx, day)
	}
	shape, err := shapeForSize(size)
	if err != nil {
		return store.Board{}, err
	}
	if !validLevel(level) {
		return store.Board{}, fmt.Errorf("level %q: want one of %s", level, strings.Join(levels, ", "))
	}
	m, err := modeParam(mode)
	if err != nil {
		return store.Board{}, err
	}
	return store.Board{Kind: store.KindSudoku, Size: sizeName(shape), Level: level, Mode: m}, nil
}

// modeOrSolo is a board's mode as the page names it ("" is solo).
func modeOrSolo(m string) string {
	if m == "" {
		return store.ModeSolo
	}
	return m
}

// formatMillis writes a playing time as m:ss (or h:mm:ss).
func formatMillis(ms int64) string {
	sec := ms / 1000
	if sec >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", sec/3600, sec/60%60, sec%60)
	}
	return fmt.Sprintf("%d:%02d", sec/60, sec%60)
}
