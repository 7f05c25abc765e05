/* Two threads doing different work, for --separate-threads=yes and no. */
#include <pthread.h>
#include <stdio.h>

static volatile unsigned long sink;

static void *spin(void *arg)
{
	unsigned long n = (unsigned long)arg, x = 0;
	for (unsigned long i = 0; i < n; i++)
		x += i * i;
	sink += x;
	return NULL;
}

static void branchy(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		if ((i * 2654435761u) & 8)
			sink++;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, spin, (void *)20000ul);
	branchy(5000);
	pthread_join(t, NULL);
	printf("%lu\n", sink);
	return 0;
}
