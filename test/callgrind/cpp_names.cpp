// C++ names with blanks, templates and an anonymous namespace.
#include <cstdio>
#include <vector>

namespace {
template <typename T> struct Box {
	T value;
	T twice() const { return value + value; }
};

long work(const std::vector<Box<long>> &boxes)
{
	long sum = 0;
	for (const auto &b : boxes)
		sum += b.twice();
	return sum;
}
}

int main()
{
	std::vector<Box<long>> boxes;
	for (long i = 0; i < 100; i++)
		boxes.push_back(Box<long>{i});
	std::printf("%ld\n", work(boxes));
	return 0;
}
