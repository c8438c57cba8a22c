// A Go service with net/http/pprof, for tests/test_http_pprof.py: it
// listens on 127.0.0.1:0, prints the port, and keeps doing known work
// (burnA twice as long per round as burnB; keepAlloc holds up to 64 blocks of 64 KiB)
// so that its CPU and heap profiles have rows to compare.
package main

import (
	"fmt"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"runtime"
)

var sink uint64
var kept [][]byte

//go:noinline
func spin(n int) uint64 {
	var x uint64 = 1
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

//go:noinline
func burnA() { sink += spin(20_000_000) }

//go:noinline
func burnB() { sink += spin(10_000_000) }

//go:noinline
func keepAlloc() {
	if len(kept) < 64 {
		kept = append(kept, make([]byte, 64<<10))
	}
}

func main() {
	runtime.MemProfileRate = 4096
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr().(*net.TCPAddr).Port)
	os.Stdout.Sync()
	go func() {
		for {
			burnA()
			burnB()
			keepAlloc()
			runtime.GC() // heap profiles show the state at the last GC
		}
	}()
	http.Serve(ln, nil)
}
