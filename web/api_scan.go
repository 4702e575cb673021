package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"path/filepath"
	"sync"
	"time"
	"unicode/utf8"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/limit"
	"github.com/sudokuar/sudokuar/internal/wire"
	"github.com/sudokuar/sudokuar/pipeline"
)

// pipePool lends recognition pipelines: at most n run at once (one per
// core by default), each built on first use and kept for the next photo
// or camera frame. A pipeline is not safe for concurrent use; the pool
// hands each to one borrower at a time.
type pipePool struct {
	opts   pipeline.Options
	slots  *limit.Gate          // one place per pipeline that may run
	mu     sync.Mutex           // guards idle and closed
	idle   []*pipeline.Pipeline // built and free
	built  int
	closed bool
}

func newPipePool(n int, opts pipeline.Options) *pipePool {
	return &pipePool{opts: opts, slots: limit.NewGate(n, 0, 0)}
}

// errClosed is returned once the server is shutting down.
var errClosed = errors.New("the server is shutting down")

// get borrows a pipeline, waiting for a free one until ctx ends. The
// caller gives it back by calling the returned function.
func (p *pipePool) get(ctx context.Context) (*pipeline.Pipeline, func(), error) {
	release, err := p.slots.Enter(ctx, "")
	if err != nil {
		return nil, nil, err
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		release()
		return nil, nil, errClosed
	}
	if k := len(p.idle); k > 0 {
		pl := p.idle[k-1]
		p.idle = p.idle[:k-1]
		p.mu.Unlock()
		return pl, func() { p.put(pl, release) }, nil
	}
	p.mu.Unlock()
	pl, err := pipeline.New(p.opts)
	if err != nil {
		release()
		return nil, nil, err
	}
	p.mu.Lock()
	p.built++
	p.mu.Unlock()
	return pl, func() { p.put(pl, release) }, nil
}

// put returns a borrowed pipeline and its place.
func (p *pipePool) put(pl *pipeline.Pipeline, release func()) {
	p.mu.Lock()
	if p.closed {
		pl.Close()
	} else {
		p.idle = append(p.idle, pl)
	}
	p.mu.Unlock()
	release()
}

// close closes the idle pipelines; those still lent are closed on return.
func (p *pipePool) close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	var errs []error
	for _, pl := range p.idle {
		errs = append(errs, pl.Close())
	}
	p.idle = nil
	return errors.Join(errs...)
}

// checkImage is pipeline.CheckImage (the one check of an image before a
// decoder sees it) with its refusals as API errors.
func checkImage(data []byte, maxPixels int) (pipeline.ImageInfo, error) {
	info, err := pipeline.CheckImage("upload", data, int64(maxPixels))
	var tl *pipeline.TooLargeError
	var ie *pipeline.ImageError
	switch {
	case err == nil:
		return info, nil
	case errors.As(err, &tl):
		px := int64(tl.Width) * int64(tl.Height)
		return info, errorf(http.StatusRequestEntityTooLarge, "the photo is %d×%d (%.1f megapixels); at most %.0f megapixels, please scale it down",
			tl.Width, tl.Height, float64(px)/1e6, float64(maxPixels)/1e6)
	case errors.As(err, &ie) && ie.Problem == pipeline.NotImage:
		return info, errorf(http.StatusUnsupportedMediaType, "this file is not an image: send a JPEG, PNG, BMP, TIFF or WebP photo")
	case errors.As(err, &ie) && ie.Problem == pipeline.TooSmall:
		return info, errorf(http.StatusUnprocessableEntity, "the photo is only %d×%d pixels: too small to hold a readable grid", info.Width, info.Height)
	case errors.As(err, &ie) && ie.Problem == pipeline.TooManyScans:
		return info, errorf(http.StatusUnprocessableEntity, "this photo is %s", ie.Msg)
	case errors.As(err, &ie):
		return info, errorf(http.StatusUnsupportedMediaType, "this image cannot be read (%s): is the file complete?", ie.Msg)
	}
	return info, err
}

// apiScan: POST /api/scan, multipart/form-data with the photo in the field
// "photo" -> the object `sudokuar scan --json` prints for one photo. A
// photo without a readable grid is a 200 whose status says why (no grid,
// move closer, too blurry, too dark, ...); a request that is not a usable
// image is a 4xx.
func (s *Server) apiScan(w http.ResponseWriter, r *http.Request) {
	// Take a place before reading the body: the places bound how many
	// photos are held in memory at once.
	done, err := s.admit(r, s.guards.engine, s.guards.uploads)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer done()
	data, name, err := s.readPhoto(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	cfg, err := checkImage(data, s.cfg.MaxUploadPixels)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.guards.limits.Wait)
	pl, put, err := s.pipes.get(ctx)
	cancel()
	if err != nil {
		s.writeError(w, r, &apiError{Status: http.StatusServiceUnavailable, RetryAfter: 5,
			Msg: "the server is busy reading other photos: try again in a few seconds"})
		return
	}
	defer put()
	m, scale, err := decodePhoto(data, cfg, s.workSide())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer m.Close()
	res := pl.Process(m)
	res.File = name
	out := Scanned{Result: wire.FromResult(res)}
	if scale != 1 && res.Found {
		toPhoto(&out.Corners, scale)
		for i := range out.Grids {
			toPhoto(&out.Grids[i].Corners, scale)
		}
	}
	if res.Status == pipeline.StatusSolved && res.Puzzle.N() > 0 {
		// The rating is the engine's, as for a puzzle typed in; a
		// puzzle it cannot rate in time goes out without one.
		if r, l, err := rate(r.Context(), res.Puzzle); err == nil {
			out.Rating, out.Level = r, l
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// toPhoto moves corners from the decoded pixels to the photo's, scale
// times as many; pixel centres stay centres.
func toPhoto(corners *[4][2]float64, scale float64) {
	for i := range corners {
		for k := range corners[i] {
			corners[i][k] = math.Round(((corners[i][k]+0.5)*scale-0.5)*100) / 100
		}
	}
}

// Scanned is /api/scan's answer: one line of `scan --json`, and for a
// solved puzzle the logic engine's rating and level.
type Scanned struct {
	wire.Result
	Rating float64 `json:"rating,omitempty"`
	Level  string  `json:"level,omitempty"`
}

// workSide is the long side the recogniser works at: larger photos are
// scaled down to it before anything else (vision.Options.MaxSide).
func (s *Server) workSide() int { return s.cfg.Pipeline.Vision.WorkSide() }

// decodePhoto decodes a checked upload in colour, as scan does: the
// recogniser reads grey, and the ink's colour tells a player's pen from
// the print (vision.Cell.Tint). A photo whose long side is at least
// twice work is decoded at 1/2, 1/4 or 1/8 of its size (libjpeg scales
// while it decodes), never below work: the recogniser would scale it
// down to work anyway, and a large photo then takes a fraction of the
// memory.
// scale is the factor from the decoded pixels back to the photo's.
func decodePhoto(data []byte, cfg pipeline.ImageInfo, work int) (gocv.Mat, float64, error) {
	long := max(cfg.Width, cfg.Height)
	flag, scale := gocv.IMReadColor, 1.0
	for _, f := range []struct {
		flag gocv.IMReadFlag
		k    int
	}{{gocv.IMReadReducedColor8, 8}, {gocv.IMReadReducedColor4, 4}, {gocv.IMReadReducedColor2, 2}} {
		if long/f.k >= work {
			flag = f.flag
			break
		}
	}
	m, err := gocv.IMDecode(data, flag)
	if err != nil || m.Empty() {
		if err == nil {
			m.Close()
		}
		return gocv.Mat{}, 0, errorf(http.StatusUnsupportedMediaType, "this image cannot be decoded")
	}
	if m.Cols() > 0 && m.Cols() != cfg.Width {
		scale = float64(cfg.Width) / float64(m.Cols())
	}
	return m, scale, nil
}

func (s *Server) photoTooLarge() string {
	return fmt.Sprintf("the photo is larger than %.0f MB: please send a smaller one", float64(s.cfg.MaxUploadBytes)/(1<<20))
}

// uploadTime bounds how long receiving one photo may take: 20 MB at
// 3 Mbit/s.
const uploadTime = time.Minute

// readPhoto reads the "photo" field of a multipart upload, refusing more
// than MaxUploadBytes. It returns the bytes and the file's base name (for
// the answer only: nothing is ever written to disk).
func (s *Server) readPhoto(w http.ResponseWriter, r *http.Request) ([]byte, string, error) {
	limit := s.cfg.MaxUploadBytes
	tooBig := errorf(http.StatusRequestEntityTooLarge, "%s", s.photoTooLarge())
	if r.ContentLength > limit+multipartSlack {
		return nil, "", tooBig
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		return nil, "", errorf(http.StatusUnsupportedMediaType, "send the photo as multipart/form-data in the field \"photo\"")
	}
	r.Body = http.MaxBytesReader(w, r.Body, limit+multipartSlack)
	// A client that sends its photo slower than a slow phone line holds
	// a place others wait for: give it a minute, then let go.
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(uploadTime))
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, "", errorf(http.StatusBadRequest, "malformed multipart body: %v", err)
	}
	for {
		part, err := mr.NextPart()
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			return nil, "", tooBig
		case err == io.EOF:
			return nil, "", errorf(http.StatusBadRequest, "no field \"photo\" in the upload")
		case err != nil:
			return nil, "", errorf(http.StatusBadRequest, "malformed multipart body: %v", err)
		}
		if part.FormName() != "photo" {
			part.Close()
			continue
		}
		data, err := io.ReadAll(io.LimitReader(part, limit+1))
		part.Close()
		if errors.As(err, &mbe) || int64(len(data)) > limit {
			return nil, "", tooBig
		}
		if err != nil {
			return nil, "", errorf(http.StatusBadRequest, "reading the photo: %v", err)
		}
		if len(data) == 0 {
			return nil, "", errorf(http.StatusBadRequest, "the photo is empty")
		}
		return data, safeName(part.FileName()), nil
	}
}

// safeName keeps a short, printable base name of a client's file name.
func safeName(name string) string {
	name = filepath.Base(filepath.ToSlash(name))
	if name == "." || name == "/" || !utf8.ValidString(name) {
		return ""
	}
	if r := []rune(name); len(r) > 100 {
		name = string(r[:100])
	}
	return name
}
