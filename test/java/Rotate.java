// Runs Busy and Alloc while a second recording starts and stops: each
// start and stop makes the JVM begin a new chunk, so the dump of the
// recording given on the command line holds several chunks, each with its
// own metadata and constant pools.
import jdk.jfr.Recording;

public class Rotate {
	public static void main(String[] args) throws Exception {
		String[] time = { args[0] };
		try (Recording extra = new Recording()) {
			extra.enable("jdk.ExecutionSample");
			extra.start();
			Busy.main(time);
			Alloc.main(time);
		}
		Busy.main(time);
	}
}
