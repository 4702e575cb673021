package web

import (
	"net"
	"net/netip"
	"sync"
)

// LimitListener wraps ln so one address (IPv6 by its /64) holds at most
// perAddr connections: one more is closed as soon as it is accepted, before
// it costs a goroutine or a buffer. A browser opens about six connections
// plus one per camera stream, so a household fits in DefaultConnsPerAddr.
// Addresses in exempt (load balancers, which cap per client themselves) are
// not counted. perAddr <= 0 returns ln unchanged.
func LimitListener(ln net.Listener, perAddr int, exempt ...netip.Prefix) net.Listener {
	if perAddr <= 0 {
		return ln
	}
	return &limitListener{Listener: ln, max: perAddr, open: map[string]int{}, exempt: exempt}
}

// trusted reports whether the address remote (host:port or a bare IP)
// is in one of the prefixes.
func trusted(prefixes []netip.Prefix, remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	ip = ip.Unmap().WithZone("")
	for _, p := range prefixes {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// DefaultConnsPerAddr is the connection bound `sudokuar serve` uses.
const DefaultConnsPerAddr = 64

type limitListener struct {
	net.Listener
	max    int
	exempt []netip.Prefix
	mu     sync.Mutex
	open   map[string]int
}

// Accept returns the next connection whose address is under its bound,
// closing those over it.
func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if len(l.exempt) > 0 && trusted(l.exempt, c.RemoteAddr().String()) {
			return c, nil
		}
		key := addressKey(c.RemoteAddr().String())
		l.mu.Lock()
		ok := l.open[key] < l.max
		if ok {
			l.open[key]++
		}
		l.mu.Unlock()
		if !ok {
			c.Close()
			continue
		}
		return &limitedConn{Conn: c, release: func() { l.done(key) }}, nil
	}
}

func (l *limitListener) done(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[key]--; l.open[key] <= 0 {
		delete(l.open, key)
	}
}

// limitedConn gives its address's place back when it is closed (once,
// however often Close is called).
type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
