// Six busy threads of unequal work, for the flame chart's lanes
// (test/make-chart-recordings.sh records it): after main's warm-up, worker-N
// does N units of work (about N x 120 ms of CPU), first in `hash` (calls, so that JFR can walk the
// stacks it samples), then in `sort`, so that each lane shows two phases.
public class Lanes {
	static volatile long sink;
	/* About 60 ms of CPU each on a quiet machine: work, not time, so that a busy one records them all. */
	static final int HASHES = 600, SORTS = 550;

	static long fib(int n) {
		return n < 2 ? n : fib(n - 1) + fib(n - 2);
	}

	static long hash(int times) {
		long h = 1;
		for (int i = 0; i < times; i++)
			h += fib(22);
		return h;
	}

	static long sort(int times) {
		long n = 0;
		int[] a = new int[2000];
		for (int k = 0; k < times; k++) {
			for (int i = 0; i < a.length; i++)
				a[i] = (int) ((i * 2654435761L) % 1000);
			java.util.Arrays.sort(a);
			n += a[7];
		}
		return n;
	}

	static void work(int n) {
		sink += hash(n * HASHES);
		sink += sort(n * SORTS);
	}

	public static void main(String[] args) throws InterruptedException {
		work(1); // warm: JFR walks compiled stacks more often than the interpreter's
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
