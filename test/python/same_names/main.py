# Functions that share a name (test/make-pstats-samples.sh): `<module>` of
# three files, `__init__` of two classes, `<genexpr>` of two modules.
import first
import second


def run(n):
    total = 0
    for i in range(n):
        total += first.Point(i).size() + second.Box(i).size()
        total += first.spread(i) + second.spread(i)
    return total


run(20000)
