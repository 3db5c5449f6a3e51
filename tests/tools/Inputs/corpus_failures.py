"""Prints the failures of a corpus_runner.py JSON file, one per line, for FileCheck."""
import json
import sys

with open(sys.argv[1], encoding="utf-8") as f:
    document = json.load(f)
for failure in document["failures"]:
    where = failure.get("file", "")
    if "line" in failure:
        where += f":{failure['line']}"
    threads = f" t{failure['threads']}" if "threads" in failure else ""
    build = failure.get("build", "")
    print(f"{failure['class']} | {build}{threads} | {failure['program']} | {where}")
