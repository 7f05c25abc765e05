/* Direct and mutual recursion for callgrind: fib'2 names and cycles. */
#include <stdio.h>
#include <stdlib.h>

static int is_odd(int n);

static int is_even(int n)
{
	return n == 0 ? 1 : is_odd(n - 1);
}

static int is_odd(int n)
{
	return n == 0 ? 0 : is_even(n - 1);
}

static long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 12;
	printf("%ld %d\n", fib(n), is_even(n));
	return 0;
}
