/* Sample program for test/make-legacy-samples.sh: a few functions that
 * call each other and burn CPU (for gperftools' CPU profiler), and keep
 * some allocations live until exit and free others (for gperftools' heap
 * profiler).
 *   spin         one thread, ~0.6 s of CPU
 *   spin 2       main thread and a second pthread, ~0.3 s each
 *   spin heap    allocations only (little CPU)
 * Built by the script with -O0 -g -fno-omit-frame-pointer, linked with
 * -lprofiler (CPU) or -ltcmalloc (heap) under -Wl,--no-as-needed: nothing
 * here calls them, and Debian's linker would drop them otherwise. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static volatile unsigned long sink;

static void burn(unsigned long n)
{
	unsigned long i, x = sink;
	for (i = 0; i < n; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

static void leaf_a(unsigned long n) { burn(n); }
static void leaf_b(unsigned long n) { burn(2 * n); }

static void middle(unsigned long n)
{
	leaf_a(n);
	leaf_b(n);
}

static void outer(unsigned long rounds, unsigned long n)
{
	unsigned long r;
	for (r = 0; r < rounds; r++) {
		middle(n);
		leaf_a(n); /* leaf_a also straight from outer */
	}
}

static void *worker(void *arg)
{
	(void)arg;
	outer(100, 500000);
	return NULL;
}

/* Live allocations: a linked list of small nodes and a few big blocks,
 * each from its own function, never freed. */
struct node { struct node *next; char pad[56]; };
static struct node *list;
static char *blocks[8];

static void make_list(int n)
{
	int i;
	for (i = 0; i < n; i++) {
		struct node *p = malloc(sizeof *p);
		memset(p, i, sizeof *p);
		p->next = list;
		list = p;
	}
}

static void make_blocks(void)
{
	int i;
	for (i = 0; i < 8; i++) {
		blocks[i] = malloc((size_t)(i + 1) * 65536);
		memset(blocks[i], i, (size_t)(i + 1) * 65536);
	}
}

/* Allocated and freed again: counted in the alloc columns only. */
static void scratch(void)
{
	int i;
	for (i = 0; i < 1000; i++) {
		char *p = malloc(1024);
		memset(p, i, 1024);
		free(p);
	}
}

static void allocate(void)
{
	make_list(20000);
	make_blocks();
	scratch();
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "heap") == 0) {
		allocate();
	} else if (argc > 1 && strcmp(argv[1], "2") == 0) {
		pthread_t t;
		pthread_create(&t, NULL, worker, NULL);
		worker(NULL);
		pthread_join(t, NULL);
	} else {
		outer(200, 500000);
	}
	return 0;
}
