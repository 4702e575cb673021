package cluster

import (
	"context"
	"errors"
	"net"
	"net/url"
	"syscall"
)

// Gone reports whether the node at base (its http:// or https:// URL) has
// stopped: a TCP connection to its port is refused, as it is at once for
// a killed process on a machine still up. Anything else (the connection
// made, a timeout of ctx, an unreachable network, a bad URL) is no proof
// and reports false: a slow node, or one behind a slow link, is never
// taken for dead here (its heartbeat says that, after rooms.DeadAfter).
// It is rooms.Config.Gone of a cluster's nodes.
func Gone(ctx context.Context, base string) bool {
	u, err := url.Parse(base)
	if err != nil || u.Hostname() == "" {
		return false
	}
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", net.JoinHostPort(u.Hostname(), port))
	if err == nil {
		c.Close()
		return false
	}
	return errors.Is(err, syscall.ECONNREFUSED)
}
