/* Inlined code from a header (fi=/fe= lines) and a function called from two callers. */
#include <stdio.h>

#include "inl.h"

static unsigned shared_work(unsigned x)
{
	for (int i = 0; i < 50; i++)
		x = x * 33 + (unsigned)i;
	return x;
}

static unsigned left(unsigned x)
{
	return checksum(x) + shared_work(x);
}

static unsigned right(unsigned x)
{
	return shared_work(x + 1) ^ checksum(x * 3);
}

int main(void)
{
	unsigned acc = 0;
	for (unsigned i = 0; i < 40; i++)
		acc += i % 3 ? left(i) : right(i);
	printf("%u\n", acc);
	return 0;
}
