// CPU-bound work in a few methods of their own, so that JFR's execution
// samples have deep, distinct stacks (recursion, a lambda, a stream).
import java.util.stream.IntStream;

public class Busy {
	static long fib(int n) {
		return n < 2 ? n : fib(n - 1) + fib(n - 2);
	}

	static double series(int n) {
		double sum = 0;
		for (int i = 1; i < n; i++)
			sum += Math.sin(i) / i;
		return sum;
	}

	static long primes(int limit) {
		return IntStream.range(2, limit).filter(Busy::isPrime).count();
	}

	static boolean isPrime(int n) {
		for (int d = 2; (long) d * d <= n; d++)
			if (n % d == 0)
				return false;
		return true;
	}

	public static void main(String[] args) {
		long until = System.currentTimeMillis() + Long.parseLong(args[0]);
		long total = 0;
		while (System.currentTimeMillis() < until) {
			total += fib(27);
			total += (long) series(2_000_000);
			total += primes(200_000);
		}
		System.out.println(total);
	}
}
