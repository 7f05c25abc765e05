# A program test/make-pstats-samples.sh profiles for Python 3's import
# cycle (exec -> <module> -> _find_and_load -> ... -> exec): it imports
# pure-Python modules that import others, then does a little work in them.
import decimal
import email.parser
import fractions
import json
import statistics

data = [fractions.Fraction(i, 7) for i in range(200)]
print(statistics.mean(data), decimal.Decimal(1) / 7)
print(json.dumps({"a": [1, 2, 3]}))
print(email.parser.Parser().parsestr("Subject: hi\n\nbody").get("Subject"))
