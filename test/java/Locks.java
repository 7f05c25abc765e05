// Threads that contend for a monitor, wait on it and park, so that JFR's
// lock events (JavaMonitorEnter, JavaMonitorWait, ThreadPark) have stacks.
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

public class Locks {
	static final Object monitor = new Object();
	static final ReentrantLock lock = new ReentrantLock();
	static long counter;

	static void holdMonitor() {
		synchronized (monitor) {
			long end = System.nanoTime() + 30_000_000;
			while (System.nanoTime() < end)
				counter++;
		}
	}

	static void waitOnMonitor() throws InterruptedException {
		synchronized (monitor) {
			monitor.wait(25);
		}
	}

	static void holdLock() {
		lock.lock();
		try {
			LockSupport.parkNanos(30_000_000);
		} finally {
			lock.unlock();
		}
	}

	public static void main(String[] args) throws Exception {
		long until = System.currentTimeMillis() + Long.parseLong(args[0]);
		Thread[] threads = new Thread[4];
		for (int t = 0; t < threads.length; t++) {
			final int kind = t % 3;
			threads[t] = new Thread(() -> {
				try {
					while (System.currentTimeMillis() < until) {
						if (kind == 0)
							holdMonitor();
						else if (kind == 1)
							waitOnMonitor();
						else
							holdLock();
					}
				} catch (InterruptedException e) {
					Thread.currentThread().interrupt();
				}
			}, "worker-" + t);
			threads[t].start();
		}
		for (Thread t : threads)
			t.join();
		System.out.println(counter);
	}
}
