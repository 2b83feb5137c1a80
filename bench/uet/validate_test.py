"""How validate.py maps htsim_uec's congestion-control flags:  python3 -m unittest bench/uet/validate_test.py"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import validate  # noqa: E402


def flags(*params):
    return validate.ours_flags([p.split() for p in params], ".")[0]


class OversubscribedCcTest(unittest.TestCase):
    def test_receivers_without_a_sender_flag_leave_it_to_the_tree(self):
        self.assertEqual(["--cc", "receiver"], flags("-receiver_cc_only"))
        self.assertEqual(["--cc", "both"], flags("-receiver_cc"))

    def test_a_sender_flag_turns_it_off_wherever_it_comes(self):
        self.assertEqual(["--cc", "both", "--oversubscribed-cc", "off"], flags("-sender_cc", "-receiver_cc"))
        self.assertEqual(["--cc", "both", "--oversubscribed-cc", "off"], flags("-receiver_cc", "-sender_cc"))

    def test_its_own_flags_count_in_order(self):
        self.assertEqual(["--cc", "both", "--oversubscribed-cc", "on"], flags("-sender_cc", "-receiver_cc", "-oversubscribed_cc"))
        self.assertEqual(["--cc", "both", "--oversubscribed-cc", "off"], flags("-oversubscribed_cc", "-sender_cc", "-receiver_cc"))
        self.assertEqual(["--cc", "receiver", "--oversubscribed-cc", "off"], flags("-receiver_cc_only", "-force_disable_oversubscribed_cc"))

    def test_without_receiver_credit_there_are_no_pulls_to_slow(self):
        self.assertEqual(["--cc", "sender"], flags("-sender_cc_only", "-oversubscribed_cc"))


if __name__ == "__main__":
    unittest.main()
