// Sample program for test/make-legacy-samples.sh: writes the Go runtime's
// legacy text profiles (runtime/pprof, debug=1) into the directory given
// as its argument: heap, block, mutex, goroutine and threadcreate.
// Every profile has a few stacks of its own named functions; it runs in
// well under a second.
package main

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"
)

// Kept live so that the heap profile shows them in use.
var keep [][]byte

type node struct {
	next *node
	pad  [56]byte
}

var list *node

//go:noinline
func allocBig() {
	for i := 0; i < 8; i++ {
		keep = append(keep, make([]byte, 2<<20))
	}
}

//go:noinline
func allocMedium() {
	for i := 0; i < 32; i++ {
		keep = append(keep, make([]byte, 256<<10))
	}
}

//go:noinline
func allocSmall() {
	for i := 0; i < 100000; i++ {
		list = &node{next: list}
	}
}

//go:noinline
func allocGarbage() {
	for i := 0; i < 16; i++ {
		b := make([]byte, 1<<20)
		b[0] = byte(i)
	}
}

// Block profile: receives that wait for a slow sender, and a WaitGroup.
//
//go:noinline
func slowSend(c chan int) {
	for i := 0; i < 5; i++ {
		time.Sleep(2 * time.Millisecond)
		c <- i
	}
	close(c)
}

//go:noinline
func recvAll(c chan int) {
	for range c {
	}
}

//go:noinline
func waitFor(wg *sync.WaitGroup) { wg.Wait() }

// Mutex profile: goroutines that hold one lock in turn.
var mu sync.Mutex
var counter int

//go:noinline
func holdLock() {
	mu.Lock()
	time.Sleep(500 * time.Microsecond)
	counter++
	mu.Unlock()
}

//go:noinline
func contend(wg *sync.WaitGroup) {
	defer wg.Done()
	for i := 0; i < 10; i++ {
		holdLock()
	}
}

// Goroutine profile: goroutines parked here while it is written.
//
//go:noinline
func parkA(ready *sync.WaitGroup, c chan int) { ready.Done(); <-c }

//go:noinline
func parkB(ready *sync.WaitGroup, c chan int) { ready.Done(); <-c }

func write(dir, name string) {
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		panic(err)
	}
	if err := pprof.Lookup(name).WriteTo(f, 1); err != nil {
		panic(err)
	}
	if err := f.Close(); err != nil {
		panic(err)
	}
}

func main() {
	dir := os.Args[1]
	runtime.SetBlockProfileRate(1)
	runtime.SetMutexProfileFraction(1)

	allocBig()
	allocMedium()
	allocSmall()
	allocGarbage()
	runtime.GC() // the heap profile shows the state as of the last GC

	c := make(chan int)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { slowSend(c); wg.Done() }()
	recvAll(c)
	waitFor(&wg)

	var wg2 sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg2.Add(1)
		go contend(&wg2)
	}
	wg2.Wait()

	park := make(chan int)
	var ready sync.WaitGroup
	for i := 0; i < 3; i++ {
		ready.Add(1)
		go parkA(&ready, park)
	}
	// Two with pprof labels: debug=1 writes them as "# labels:" lines.
	pprof.Do(context.Background(), pprof.Labels("group", "b"), func(context.Context) {
		for i := 0; i < 2; i++ {
			ready.Add(1)
			go parkB(&ready, park)
		}
	})
	ready.Wait()
	time.Sleep(10 * time.Millisecond) // let them reach the receive

	for _, name := range []string{"heap", "block", "mutex", "goroutine", "threadcreate"} {
		write(dir, name)
	}
	close(park)
}
