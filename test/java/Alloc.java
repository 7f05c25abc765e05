// Allocation of objects of several sizes and classes, so that JFR's
// allocation events (in and outside TLABs, samples) have stacks and weights.
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class Alloc {
	static List<Object> keep = new ArrayList<>();

	static Object small(int i) {
		return new StringBuilder().append("item ").append(i).toString();
	}

	static Object large(int i) {
		return new long[64 * 1024 + i % 100];
	}

	static Object table(int i) {
		Map<Integer, String> m = new HashMap<>();
		for (int k = 0; k < 100; k++)
			m.put(k, Integer.toHexString(k * i));
		return m;
	}

	public static void main(String[] args) {
		long until = System.currentTimeMillis() + Long.parseLong(args[0]);
		for (int i = 0; System.currentTimeMillis() < until; i++) {
			keep.add(small(i));
			keep.add(i % 50 == 0 ? large(i) : table(i));
			if (keep.size() > 10_000)
				keep.clear();
		}
		System.out.println(keep.size());
	}
}
