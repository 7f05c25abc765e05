-- A small program for GHC's cost-centre profiler: recursion, a where
-- binding, a lambda, a manual SCC, a name outside ASCII, and CAFs.
module Main (main) where

import Data.List (foldl')

fib :: Int -> Integer
fib n = if n < 2 then 1 else fib (n - 1) + fib (n - 2)

squares :: Int -> [Int]
squares n = map (\x -> x * x) [1 .. n]

größe :: [Int] -> Int
größe = foldl' (+) 0

table :: [Integer]
table = map fib [20 .. 24]

main :: IO ()
main = do
  print (sum table)
  print ({-# SCC "sumOfSquares" #-} größe (squares 2000000))
  print (length (show (product [1 .. 3000 :: Integer])))
