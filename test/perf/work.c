/*
 * A small CPU-bound program for perf to record (test/make-perf-samples.sh):
 * known call paths (main -> middle -> leaf, main -> other -> leaf), and a
 * function in an anonymous-namespace-like name via a function pointer, so
 * that the stacks a recording shows can be told apart.
 */
#include <stdio.h>

static volatile double sink;

__attribute__((noinline)) static double leaf(int n)
{
	volatile double s = 0;
	for (int i = 0; i < n; i++)
		s += i * 0.5;
	return s;
}

__attribute__((noinline)) static double middle(int n)
{
	return leaf(n) + leaf(n / 2);
}

__attribute__((noinline)) static double other(int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += leaf(64);
	return s;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? 0 : 150;
	(void)argv;
	for (int k = 0; k < rounds; k++) {
		sink += middle(200000);
		sink += other(2000);
	}
	printf("%f\n", sink);
	return 0;
}
