package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/sudokuar/sudokuar/cluster"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/rooms"
	"github.com/sudokuar/sudokuar/store"
	"github.com/sudokuar/sudokuar/web"
)

type serveConfig struct {
	addr      string
	db        string
	tlsCert   string
	tlsKey    string
	backend   string
	workers   int
	verbose   bool
	proxies   []netip.Prefix   // --proxy: load balancers whose X-Forwarded-For is trusted
	node      string           // this node's name in a cluster (--db postgres://)
	url       string           // where other nodes send this node's players
	journal   bool             // --journal: rooms survive their node (PostgreSQL)
	ready     func(url string) // tests: called once listening
	interrupt context.Context  // tests: cancelled to stop, like SIGINT
}

func serveFlags(fs *flag.FlagSet) func(*env, []string) int {
	var c serveConfig
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "listen on this `host:port` (0.0.0.0:8080 to reach it from a phone on the same network)")
	fs.StringVar(&c.db, "db", "", "SQLite database `file` for games and scores (default: sudokuar/sudokuar.db in the user's data folder), or a postgres:// URL")
	fs.StringVar(&c.tlsCert, "tls-cert", "", "serve HTTPS with this certificate `file` (PEM; phones need HTTPS for the camera)")
	fs.StringVar(&c.tlsKey, "tls-key", "", "the certificate's private key `file` (PEM)")
	fs.StringVar(&c.backend, "ocr-backend", pipeline.BackendGo, "digit network runtime: onnx-go or opencv")
	fs.IntVar(&c.workers, "workers", 0, "recognitions (photos, camera frames) run at once (default: one per core)")
	fs.BoolVar(&c.verbose, "v", false, "log every camera stream's timing and each failed request")
	fs.Func("proxy", "a load balancer in front (HAProxy, nginx): its `address` or CIDR (repeat, or separate by commas); requests from it count as the client's it names last in X-Forwarded-For, and its connections are not capped per address", func(v string) error {
		ps, err := parseProxies(v)
		c.proxies = append(c.proxies, ps...)
		return err
	})
	fs.StringVar(&c.node, "node", "", "with --db postgres://: this node's `name` among the servers sharing the database (default: the host name; two live nodes may not share one)")
	fs.StringVar(&c.url, "url", "", "with --db postgres://: the `URL` other nodes send this node's players to (default: http://ADDR, or a load balancer's URL they all share)")
	fs.BoolVar(&c.journal, "journal", true, "with --db postgres://: journal every room's moves before answering them, so another node takes a room over when this one dies or stops (false: a room ends with its node)")
	return func(e *env, args []string) int {
		if len(args) > 0 {
			fmt.Fprintf(e.stderr, "sudokuar serve: unexpected argument %q\n", args[0])
			return exitUsage
		}
		if (c.tlsCert == "") != (c.tlsKey == "") {
			fmt.Fprintln(e.stderr, "sudokuar serve: --tls-cert and --tls-key go together")
			return exitUsage
		}
		if (c.node != "" || c.url != "") && !store.IsPostgresURL(c.db) {
			fmt.Fprintln(e.stderr, "sudokuar serve: --node and --url are for several nodes sharing a PostgreSQL database (--db postgres://…)")
			return exitUsage
		}
		if c.interrupt == nil {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			c.interrupt = ctx
		}
		if err := serveRun(c, e.stdout, e.stderr); err != nil {
			fmt.Fprintln(e.stderr, "sudokuar serve:", err)
			return exitFail
		}
		return exitOK
	}
}

// serveRun serves until c.interrupt is done (SIGINT or SIGTERM), then
// shuts down gracefully: no new connections, requests in flight finish
// (every move is stored before it is answered, so none is lost), camera
// streams are told the server is going away, and the database is closed
// cleanly.
func serveRun(c serveConfig, stdout, stderr io.Writer) error {
	if c.db == "" {
		p, err := store.DefaultPath()
		if err != nil {
			return fmt.Errorf("no --db given and %w", err)
		}
		c.db = p
	}
	var tlsCfg *tls.Config
	if c.tlsCert != "" {
		cert, err := tls.LoadX509KeyPair(c.tlsCert, c.tlsKey)
		if err != nil {
			return fmt.Errorf("TLS certificate: %w", err)
		}
		tlsCfg = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return err
	}
	// A hostile client opening sockets by the thousand uses up only its
	// own address's share.
	ln = web.LimitListener(ln, web.DefaultConnsPerAddr, c.proxies...)
	defer ln.Close()
	scheme := "http"
	if tlsCfg != nil {
		scheme = "https"
	}
	var db store.Store
	var roomsCfg rooms.Config
	where := c.db
	if store.IsPostgresURL(c.db) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		pg, err := store.OpenPostgres(ctx, c.db)
		if err != nil {
			cancel()
			return err
		}
		dir, node, err := openCluster(ctx, c, scheme, ln.Addr())
		if err != nil {
			cancel()
			pg.Close()
			return err
		}
		defer dir.Close() // after the hub (web.Server.Close) has stopped
		roomsCfg = rooms.Config{Node: node.Name, URL: node.URL, Directory: dir, Gone: cluster.Gone}
		if c.journal {
			if roomsCfg.Journal, err = cluster.NewJournal(ctx, dir.Pool()); err != nil {
				cancel()
				pg.Close()
				return err
			}
		}
		cancel()
		db, where = pg, fmt.Sprintf("PostgreSQL; node %s, reached at %s", node.Name, node.URL)
	} else {
		unlock, err := lockSQLite(c.db)
		if err != nil {
			return err
		}
		defer unlock()
		lite, err := store.OpenSQLite(c.db)
		if err != nil {
			return err
		}
		db = lite
	}
	defer db.Close()
	level := slog.LevelWarn
	if c.verbose {
		level = slog.LevelInfo
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	srv, err := web.New(web.Config{
		Store: db, Log: logger, Pipeline: pipeline.Options{Backend: c.backend},
		Secure: tlsCfg != nil, Workers: c.workers, Rooms: roomsCfg, Proxies: c.proxies,
	})
	if err != nil {
		return err
	}
	if tlsCfg != nil {
		ln = tls.NewListener(ln, tlsCfg)
	}
	hs := &http.Server{
		Handler:           srv.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       2 * time.Minute, // a photo on a slow phone link
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	hs.RegisterOnShutdown(srv.CloseStreams)
	url := fmt.Sprintf("%s://%s", scheme, ln.Addr())
	fmt.Fprintf(stdout, "sudokuar serve: %s (games and scores in %s; Ctrl+C stops)\n", url, where)
	for _, u := range lanURLs(scheme, ln.Addr()) {
		fmt.Fprintf(stdout, "  from a phone on this network: %s\n", u)
	}
	if c.ready != nil {
		c.ready(url)
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		srv.Close()
		return err
	case <-c.interrupt.Done():
	}
	fmt.Fprintln(stdout, "sudokuar serve: shutting down")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = hs.Shutdown(ctx)
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	if err != nil {
		// A request still running after 10 s (a photo crawling in):
		// close its connection, so it fails and its client knows,
		// rather than the database closing under it.
		fmt.Fprintln(stderr, "sudokuar serve: requests still running after 10 s, closing their connections:", err)
		err = hs.Close()
	}
	return errors.Join(err, srv.Close())
}

// parseProxies reads --proxy: addresses (one host each) or CIDR prefixes,
// separated by commas.
func parseProxies(v string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		ip, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is not an IP address or a CIDR prefix (e.g. 10.0.0.5 or 10.0.0.0/24)", f)
		}
		ip = ip.Unmap()
		out = append(out, netip.PrefixFrom(ip, ip.BitLen()))
	}
	return out, nil
}

// openCluster joins the cluster of nodes sharing c.db: --node (default
// the host name) and --url (default scheme://ADDR, with the host name for
// an address listening on every interface).
func openCluster(ctx context.Context, c serveConfig, scheme string, addr net.Addr) (*cluster.Directory, rooms.NodeInfo, error) {
	n := rooms.NodeInfo{Name: c.node, URL: c.url}
	host, _ := os.Hostname()
	if n.Name == "" {
		if host == "" {
			return nil, n, errors.New("no --node given and the host has no name: name this node")
		}
		n.Name = host
	}
	if n.URL == "" {
		a := addr.String()
		if ta, ok := addr.(*net.TCPAddr); ok && ta.IP.IsUnspecified() && host != "" {
			a = net.JoinHostPort(host, fmt.Sprint(ta.Port))
		}
		n.URL = scheme + "://" + a
	}
	d, err := cluster.Open(ctx, c.db, cluster.Options{Node: n.Name, URL: n.URL})
	return d, n, err
}

// lanURLs lists the addresses a phone on the same network can use when
// the server listens on every interface.
func lanURLs(scheme string, addr net.Addr) []string {
	ta, ok := addr.(*net.TCPAddr)
	if !ok || !ta.IP.IsUnspecified() {
		return nil
	}
	ifaces, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var out []string
	for _, a := range ifaces {
		ipn, ok := a.(*net.IPNet)
		if !ok || ipn.IP.IsLoopback() || ipn.IP.To4() == nil || strings.HasPrefix(ipn.IP.String(), "169.254.") {
			continue
		}
		out = append(out, fmt.Sprintf("%s://%s:%d", scheme, ipn.IP, ta.Port))
	}
	return out
}
