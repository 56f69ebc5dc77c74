"""Prints pytest's JUnit XML report as `N passed, N failed, N errors, N skipped (of N)`."""

import sys
import xml.etree.ElementTree as ET

suite = ET.parse(sys.argv[1]).getroot()
if suite.tag == "testsuites":
    suite = suite[0]
total, failures, errors, skipped = (int(suite.get(k, 0)) for k in ("tests", "failures", "errors", "skipped"))
print(f"{total - failures - errors - skipped} passed, {failures} failed, {errors} errors, {skipped} skipped (of {total})")
