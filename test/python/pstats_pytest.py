# Tests pytest runs under cProfile in test/make-pstats-samples.sh, for
# pluggy's cycle of hook calls (runtest_protocol -> ... -> _multicall).
import time


def test_sleeps():
    time.sleep(0.002)


def test_sorts():
    assert sorted(range(300), key=lambda x: -x)[0] == 299
