#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""tools/longest-functions on a C++ file whose functions' lengths are known: wrapped signatures,
namespaces, classes, constructor initialisers with braces, lambdas, braces in strings and
comments, and the --allow check (exit 1 for an unlisted long function or a stale entry)."""
import os
import subprocess
import sys
import tempfile

TOOL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "longest-functions")

SOURCE = r'''#include <string>
namespace a { namespace b {

struct Point {
    Point(int x, int y) : x_{x}, y_(y) {
        // } a brace in a comment
        std::string s = "{ not a block";
    }
    int x_, y_;
};

static int
wrapped_signature(int a,
                  int b) {
    auto f = [&](int c) {
        return c + '}';
    };
    if (a) {
        return f(b);
    }
    return 0;
}

}  // namespace b

int Outer::Inner::method() const {
    return 1;
}
}  // namespace a
'''


def run(*args):
    p = subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def main():
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "src")
        os.mkdir(src)
        path = os.path.join(src, "f.cpp")
        with open(path, "w") as f:
            f.write(SOURCE)
        rc, out, err = run("--max", "0", src)
        got = [(int(l.split()[0]), l.split()[1].rsplit(":", 1)[1], l.split()[2]) for l in out.splitlines()]
        want = [(11, "12", "wrapped_signature"), (4, "5", "Point"), (3, "26", "Outer::Inner::method")]
        assert rc == 0 and got == want, f"rc={rc} got={got} want={want} err={err}"
        rc, out, _ = run("--max", "4", src)
        assert [l.split()[2] for l in out.splitlines()] == ["wrapped_signature"], out

        allow = os.path.join(d, "allow.txt")
        with open(allow, "w") as f:
            f.write(f"# comment\n{path} wrapped_signature\n")
        rc, _, err = run("--max", "4", "--allow", allow, src)
        assert rc == 0, err
        rc, _, err = run("--max", "3", "--allow", allow, src)
        assert rc == 1 and "Point has 4 lines" in err, err
        rc, _, err = run("--max", "20", "--allow", allow, src)
        assert rc == 1 and "no longer over 20 lines" in err, err
    print("ok")


if __name__ == "__main__":
    main()
