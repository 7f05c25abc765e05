class Box:
    def __init__(self, width):
        self.sides = {"w": width, "h": width * 2}

    def size(self):
        return len(self.sides)


def spread(n):
    return max(k + 1 for k in range(n % 40 + 1))
