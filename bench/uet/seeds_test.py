"""The verdict validate.py prints per experiment over seeds:  python3 -m unittest bench/uet/seeds_test.py"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import seeds  # noqa: E402


class VerdictTest(unittest.TestCase):
    def test_means_within_five_percent_agree(self):
        self.assertEqual("yes: +4.0 %, within 5 %", seeds.verdict([100.0, 100.0], [104.0, 104.0]))

    def test_means_beyond_five_percent_with_narrow_spreads_differ(self):
        self.assertEqual("no: +6.0 %, beyond 5 %", seeds.verdict([100.0, 100.0, 100.0], [106.0, 106.0, 106.0]))

    def test_wide_spread_allows_two_standard_errors(self):
        # htsim_uec 100 ± 10 (spread 17 %), trimswitch 110 ± 10: 10 µs apart, two standard errors are 32.7 µs.
        verdict = seeds.verdict([80.0, 100.0, 120.0], [90.0, 110.0, 130.0])
        self.assertEqual("yes: +10.0 µs, within 2 SE (32.7 µs)", verdict)

    def test_wide_spread_beyond_two_standard_errors_differs(self):
        verdict = seeds.verdict([80.0, 100.0, 120.0], [190.0, 210.0, 230.0])
        self.assertEqual("no: +110.0 µs, beyond 2 SE (32.7 µs)", verdict)

    def test_an_unfinished_run_never_agrees(self):
        self.assertEqual("no: a run failed or left flows unfinished", seeds.verdict([100.0], [100.0], complete=False))

    def test_cell_gives_mean_standard_error_and_spread(self):
        self.assertEqual("100.0 ± 11.5 µs (20.0 %)", seeds.cell([80.0, 100.0, 120.0]))


if __name__ == "__main__":
    unittest.main()
