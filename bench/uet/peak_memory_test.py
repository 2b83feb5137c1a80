"""How peak_memory.py groups a process's mappings:  python3 -m unittest bench/uet/peak_memory_test.py"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peak_memory  # noqa: E402

SMAPS = """7f0000000000-7f0001400000 r--p 00000000 08:01 42   /w/cli/target/trimswitch-fabric.aot
Size:              20480 kB
Rss:               18676 kB
7f1000000000-7f1100000000 rw-p 00000000 00:00 0
Size:            4194304 kB
Rss:                6628 kB
7f2000000000-7f2000800000 rw-p 00000000 00:00 0
Size:               8192 kB
Rss:                5000 kB
7f3000000000-7f3000010000 rw-p 00000000 00:00 0
Size:                 64 kB
Rss:                  40 kB
7f4000000000-7f4000100000 r-xp 00000000 08:01 43   /usr/lib/jvm/lib/server/libjvm.so
Rss:               16152 kB
7f4000100000-7f4000200000 r--p 00100000 08:01 43   /usr/lib/jvm/lib/server/libjvm.so
Rss:                  10 kB
"""


class ByMappingTest(unittest.TestCase):
    def test_files_by_name_and_anonymous_mappings_by_size(self):
        groups = peak_memory.by_mapping(SMAPS)
        self.assertEqual(18676, groups["trimswitch-fabric.aot"])
        self.assertEqual(16162, groups["libjvm.so"])
        self.assertEqual(6628, groups["[anonymous, 64 MB or more]"])
        self.assertEqual(5000, groups["[anonymous, 1-64 MB]"])
        self.assertEqual(40, groups["[anonymous, under 1 MB]"])
        self.assertEqual(18676 + 16162 + 6628 + 5000 + 40, sum(groups.values()))

    def test_a_process_that_ends_at_once_shows_its_exit_code(self):
        code, _ = peak_memory.peak(["sh", "-c", "exit 3"])
        self.assertEqual(3, code)


if __name__ == "__main__":
    unittest.main()
