// Threads held in each state a thread dump shows, until the process is
// killed, for test/make-jstack-samples.sh to dump with jstack, jcmd and
// kill -3: two spinning (RUNNABLE, named "spinner-N"), one spinning
// inside a monitor that another waits to enter (BLOCKED), one sleeping,
// one waiting on a monitor, one parked, one in a server socket's accept.
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.locks.LockSupport;

public class Dumped {
	static final Object gate = new Object();
	static final Object bell = new Object();
	static volatile long counter;

	static void spin() {
		for (;;)
			counter += Long.numberOfTrailingZeros(counter | 1);
	}

	static void holdGate() {
		synchronized (gate) {
			spin();
		}
	}

	static void enterGate() {
		synchronized (gate) {
			counter++;
		}
	}

	static void sleepLong() {
		try {
			Thread.sleep(3_600_000);
		} catch (InterruptedException e) {
			return;
		}
	}

	static void waitForBell() {
		synchronized (bell) {
			try {
				bell.wait();
			} catch (InterruptedException e) {
				return;
			}
		}
	}

	static void accept() {
		try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			server.accept();
		} catch (Exception e) {
			return;
		}
	}

	static Thread start(String name, Runnable body) {
		Thread t = new Thread(body, name);
		t.setDaemon(true);
		t.start();
		return t;
	}

	public static void main(String[] args) throws Exception {
		start("spinner-1", Dumped::spin);
		start("spinner-2", Dumped::spin);
		start("holder", Dumped::holdGate);
		Thread.sleep(100);
		start("blocked", Dumped::enterGate);
		start("sleeper", Dumped::sleepLong);
		start("waiter", Dumped::waitForBell);
		start("parker", LockSupport::park);
		start("acceptor", Dumped::accept);
		Thread.sleep(500);
		System.out.println("ready");
		System.out.flush();
		Thread.sleep(3_600_000);
	}
}
