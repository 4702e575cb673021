package pgtest

import "testing"

func TestURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"host=/tmp/pg port=5433 user=postgres dbname=x sslmode=disable search_path=s_1",
			"postgres:///x?host=%2Ftmp%2Fpg&port=5433&search_path=s_1&sslmode=disable&user=postgres"},
		{"postgres://u@h/db?sslmode=disable", "postgres://u@h/db?sslmode=disable"},
	} {
		if got := URL(tc.in); got != tc.want {
			t.Errorf("URL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := withParam("postgres://u@h/db?a=1", "search_path", "s"); got != "postgres://u@h/db?a=1&search_path=s" {
		t.Errorf("withParam on a URL: %q", got)
	}
	if got := withParam("host=h", "search_path", "s"); got != "host=h search_path=s" {
		t.Errorf("withParam on pairs: %q", got)
	}
}
