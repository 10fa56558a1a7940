-- SPDX-License-Identifier: LPPL-1.3c
-- l3build configuration for pith.sty: regression tests and the CTAN archive.
--   l3build check            the .lvt tests in testfiles/ (pdfTeX, XeTeX, LuaTeX)
--   l3build ctan             tests, then the manual and pith-ctan.zip
-- The repository's ctest runs both in a copy of this directory under the
-- CMake build tree (tests/latex.cmake), and `cmake --build build --target
-- pith-ctan` builds the archive there.  PITH_L3BUILD_DIR moves l3build's
-- work directory out of the source tree.
module = "pith"

sourcefiles  = {"pith.sty"}
installfiles = {"pith.sty"}
typesetfiles = {"pith.tex"}
docfiles     = {"pith.tex"}
textfiles    = {"README.md", "LICENSE"}
-- the manual needs two runs for its references, no index
typesetruns  = 2
typesetexe   = "pdflatex"

testfiledir  = "testfiles"
checkengines = {"pdftex", "xetex", "luatex"}
checkruns    = 1
-- a test that stops is a failure, not a hang
checkopts    = "-interaction=nonstopmode"
stdengine    = "pdftex"

builddir = os.getenv("PITH_L3BUILD_DIR") or "./build"

-- the CTAN upload: pith/{pith.sty, pith.tex, pith.pdf, README.md, LICENSE}
-- and pith.tds.zip
ctanpkg  = "pith"
packtdszip = true
