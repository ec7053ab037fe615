"""What the benches share: the VitaminC research corpus (``vitaminc``). ``credence serve`` as a
subprocess comes from ``tools/serve/api_process.py``, which the tests use too. The benches never
import the tests' support code."""
