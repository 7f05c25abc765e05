# The program test/make-pstats-samples.sh profiles with every Python:
# recursion, mutual recursion, generators, C built-ins, methods, lambdas,
# threads and (Python 3) a non-ASCII name. Runs on Python 2.7 and 3.x.
import sys
import threading
import time


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def even(n):
    return True if n == 0 else odd(n - 1)


def odd(n):
    return False if n == 0 else even(n - 1)


def squares(n):
    for i in range(n):
        yield i * i


class Counter(object):
    def __init__(self):
        self.items = []

    def add(self, x):
        self.items.append(x)

    @staticmethod
    def twice(x):
        return 2 * x


def worker(n):
    return sum(squares(n))


def main():
    fib(14)
    even(40)
    total = sum(squares(200))
    c = Counter()
    for i in range(300):
        c.add(Counter.twice(i))
    inc = lambda x: x + 1
    list(map(inc, range(100)))
    sorted(range(500), key=lambda x: -x)
    threads = [threading.Thread(target=worker, args=(1000,)) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if sys.version_info[0] >= 3:
        scope = {}
        exec("def gr\u00f6\u00dfe(n):\n    return len(str(n))\n", scope)
        for i in range(50):
            scope["gr\u00f6\u00dfe"](i)
    time.sleep(0.002)
    return total


main()
