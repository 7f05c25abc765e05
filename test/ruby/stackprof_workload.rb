# A small Ruby program profiled by stackprof for testdata/stackprof/
# (test/make-stackprof-samples.sh): named methods, a block, a recursion,
# a class method, two methods of one name in different classes, and
# garbage for the GC to collect, so that the dumps hold GC frames too.
#   ruby stackprof_workload.rb MODE RAW OUT [INTERVAL [metadata]]
# MODE: cpu, wall or object; RAW: raw (raw: true) or agg (stackprof's default).
# `metadata` gives StackProf.run metadata of many kinds of Ruby object
# (Marshal writes each its own way, and links the ones it repeats).
require 'stackprof'

class Parser
  def self.parse(text)
    text.split(',').map { |w| w.to_i * 3 }
  end

  def work(n)
    s = 0
    n.times { |i| s += i * i }
    s
  end
end

class Printer
  def work(n)
    Array.new(n) { |i| i.to_s }.join(' ').size
  end
end

def fib(n)
  n < 2 ? n : fib(n - 1) + fib(n - 2)
end

def churn(n)
  n.times.map { |i| "garbage #{i}" * 4 }.size
end

def sleepy
  sleep 0.02
end

def run(rounds, size)
  rounds.times do
    Parser.parse('1,2,3,4,5,6,7,8,9' * size)
    Parser.new.work(100 * size)
    Printer.new.work(15 * size)
    fib(14)
    churn(15 * size)
  end
end

def metadata
  shared = 'shared string'
  { 'app' => 'stackprof_workload', shared: shared, again: shared, list: [1, 2.5, 2.5, nil, true],
    tms: Process::Tms.new(1.0, 2.0, 0.0, 0.0), range: (1..9), pattern: /wor+k/i, time: Time.at(0).utc, big: 2**80,
    'café': 'naïve', nested: { a: [[[]]] }, klass: String, mod: Comparable }
end

mode, raw, out, interval, meta = ARGV
# Rounds and sizes that keep each dump to tens of KB: object mode samples every allocation.
rounds, size = { 'cpu' => [400, 20], 'wall' => [60, 20], 'object' => [1, 2] }.fetch(mode)
options = { mode: mode.to_sym, raw: raw == 'raw', out: out }
options[:interval] = Integer(interval) if interval
options[:metadata] = metadata if meta == 'metadata'
StackProf.run(**options) do
  run(rounds, size)
  sleepy if mode == 'wall'
end
