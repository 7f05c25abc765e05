class Point:
    def __init__(self, x):
        self.x = [x, x + 1, x + 2]

    def size(self):
        return len(self.x)


def spread(n):
    return sum(k * k for k in range(n % 50))
