// Six busy threads of unequal work, for the flame chart's lanes
// (test/make-chart-recordings.sh records it): worker-N spins for N x 400 ms,
// first in `hash` (calls, so that JFR can walk the stacks it samples), then in `sort`, so that each lane shows two phases.
public class Lanes {
	static volatile long sink;

	static long fib(int n) {
		return n < 2 ? n : fib(n - 1) + fib(n - 2);
	}

	static long hash(long until) {
		long h = 1;
		while (System.nanoTime() < until)
			h += fib(22);
		return h;
	}

	static long sort(long until) {
		long n = 0;
		int[] a = new int[2000];
		while (System.nanoTime() < until) {
			for (int i = 0; i < a.length; i++)
				a[i] = (int) ((i * 2654435761L) % 1000);
			java.util.Arrays.sort(a);
			n += a[7];
		}
		return n;
	}

	static void work(int n) {
		long start = System.nanoTime(), half = n * 200_000_000L;
		sink += hash(start + half);
		sink += sort(start + 2 * half);
	}

	public static void main(String[] args) throws InterruptedException {
		Thread[] threads = new Thread[6];
		for (int i = 0; i < threads.length; i++) {
			int n = i + 1;
			threads[i] = new Thread(() -> work(n), "worker-" + n);
			threads[i].start();
		}
		for (Thread t : threads)
			t.join();
	}
}
