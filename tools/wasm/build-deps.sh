#!/bin/bash
# SPDX-License-Identifier: MIT
# Builds the libraries pith's WebAssembly build links, with Debian 12's emscripten, from the
# Debian sources tools/wasm/sources.txt pins (the versions the native build links).
#
#   tools/wasm/build-deps.sh [--out DIR] [--jobs N] [LIBRARY ...]
#
# LIBRARY: zlib libsodium libunistring freetype libpodofo pugixml qrencode icu (default: all,
# in that order). Each file is downloaded once into DIR/src and checked against its SHA-256;
# a library is rebuilt only when its sources, its recipe or emcc change. Results: DIR/prefix
# (include/, lib/, share/icu/nfkc.nrm), one log a library in DIR/logs, the seconds each took in
# DIR/times.txt. DIR defaults to $PITH_WASM_DEPS, else ~/.cache/pith-wasm.
# Needs: emscripten, cmake, curl, xz-utils, bzip2, autoconf, automake, libtool.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${PITH_WASM_DEPS:-$HOME/.cache/pith-wasm}
jobs=$(nproc)
libraries=()
while [ $# -gt 0 ]; do
    case $1 in
        --out) out=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        -h|--help) sed -n '3,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "build-deps.sh: unknown option $1" >&2; exit 2 ;;
        *) libraries+=("$1"); shift ;;
    esac
done
[ ${#libraries[@]} -gt 0 ] || libraries=(zlib libsodium libunistring freetype libpodofo pugixml qrencode icu)
command -v emcc >/dev/null || { echo "build-deps.sh: emcc not found (apt-get install emscripten)" >&2; exit 2; }

# Debian's emcc runs its JavaScript tools with Node, which must find Debian's acorn; Node from
# other sources does not look in /usr/share/nodejs.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
prefix=$out/prefix
mkdir -p "$out/src" "$out/work" "$out/logs" "$out/done" "$prefix/include" "$prefix/lib"
export CFLAGS="-O2" CXXFLAGS="-O2 -fexceptions"

# The rows of sources.txt for one library: "kind url sha256" per line.
rows_of() {
    awk -v lib="$1" '/^#/ || NF == 0 { next }
        NF == 3 { name = $1; kind = $2; url = $3; next }
        NF == 1 && name == lib { print kind, url, $1 }' "$here/sources.txt"
}

fetch() {  # url sha256 -> path of the checked file
    local file=$out/src/$(basename "$1")
    if [ ! -f "$file" ] || ! echo "$2  $file" | sha256sum --quiet -c - 2>/dev/null; then
        curl -fsSL --retry 3 -o "$file.part" "$1"
        echo "$2  $file.part" | sha256sum --quiet -c - || { echo "$1: SHA-256 differs from sources.txt" >&2; exit 1; }
        mv "$file.part" "$file"
    fi
    echo "$file"
}

# A fresh tree of the library's .orig source with its Debian patches applied.
unpack() {
    local dir=$out/work/$1 kind url sum file
    rm -rf "$dir" && mkdir -p "$dir"
    while read -r kind url sum; do
        file=$(fetch "$url" "$sum")
        if [ "$kind" = orig ]; then
            tar -xf "$file" -C "$dir" --strip-components=1
        else
            tar -xf "$file" -C "$dir"
        fi
    done < <(rows_of "$1")
    [ -f "$dir/debian/patches/series" ] || { echo "$dir"; return; }
    local patch part
    for patch in $(grep -v '^\s*\(#\|$\)' "$dir/debian/patches/series" | cut -d' ' -f1); do
        # A patch to a part of the source package not unpacked (FreeType's demos and docs come
        # in tarballs of their own) is left out; any other patch must apply.
        part=$(grep '^+++ ' "$dir/debian/patches/$patch" | awk '{print $2}' | cut -d/ -f2 | sort -u |
               while read -r top; do [ -e "$dir/$top" ] || echo "$top"; done)
        if [ -n "$part" ]; then echo "left out: $patch (patches $part, not unpacked)" >&2; continue; fi
        patch -d "$dir" -p1 -s --batch < "$dir/debian/patches/$patch" >&2
    done
    echo "$dir"
}

build_zlib() {
    cd "$1" && emconfigure ./configure --static --prefix="$prefix" && emmake make -j"$jobs" libz.a && emmake make install
}

build_libsodium() {
    # The .orig tarball is a git tree: configure is generated here.
    cd "$1" && ./autogen.sh -s
    emconfigure ./configure --host=wasm32-unknown-emscripten --prefix="$prefix" --disable-shared --enable-static \
        --disable-asm --without-pthreads --disable-ssp
    emmake make -j"$jobs" && emmake make install
}

build_libunistring() {
    cd "$1" && emconfigure ./configure --host=wasm32-unknown-emscripten --prefix="$prefix" --disable-shared \
        --enable-static --disable-threads
    emmake make -j"$jobs" -C lib && emmake make -C lib install
}

cmake_build() {  # source dir, then cmake options
    local src=$1; shift
    emcmake cmake -S "$src" -B "$src/wasm-build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
        -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_ROOT_PATH="$prefix" -DBUILD_SHARED_LIBS=OFF "$@"
    cmake --build "$src/wasm-build" -j"$jobs" && cmake --install "$src/wasm-build"
}

build_freetype() {
    cmake_build "$1" -DFT_DISABLE_BZIP2=ON -DFT_DISABLE_PNG=ON -DFT_DISABLE_HARFBUZZ=ON -DFT_DISABLE_BROTLI=ON \
        -DFT_REQUIRE_ZLIB=ON -DZLIB_LIBRARY="$prefix/lib/libz.a" -DZLIB_INCLUDE_DIR="$prefix/include"
}

build_libpodofo() {
    cmake_build "$1" -DPODOFO_BUILD_LIB_ONLY=ON -DPODOFO_BUILD_STATIC=ON -DPODOFO_BUILD_SHARED=OFF \
        -DWANT_FONTCONFIG=OFF -DWANT_BOOST=OFF -DCMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON \
        -DCMAKE_DISABLE_FIND_PACKAGE_LIBIDN=ON -DCMAKE_DISABLE_FIND_PACKAGE_LIBJPEG=ON \
        -DCMAKE_DISABLE_FIND_PACKAGE_TIFF=ON -DCMAKE_DISABLE_FIND_PACKAGE_PNG=ON \
        -DCMAKE_DISABLE_FIND_PACKAGE_LIBCRYPTO=ON -DCMAKE_DISABLE_FIND_PACKAGE_LUA=ON \
        -DZLIB_LIBRARY_RELEASE="$prefix/lib/libz.a" -DZLIB_INCLUDE_DIR="$prefix/include" \
        -DFREETYPE_LIBRARY="$prefix/lib/libfreetype.a" -DFREETYPE_INCLUDE_DIR="$prefix/include/freetype2" \
        -DLIBUNISTRING_LIBRARY="$prefix/lib/libunistring.a" -DLIBUNISTRING_INCLUDE_DIR="$prefix/include"
}

build_pugixml() {
    cmake_build "$1" -DPUGIXML_BUILD_TESTS=OFF
}

build_qrencode() {
    cmake_build "$1" -DWITH_TOOLS=NO -DWITHOUT_PNG=ON
}

# ICU's configure wants a native build of its tools; pith needs only the common library and the
# NFKC data (NFC is compiled in, case folding too), so its sources are compiled directly.
build_icu() {
    local src=$1/source objs=$1/wasm-objs
    mkdir -p "$objs"
    (cd "$src/common" && ls ./*.cpp ../stubdata/stubdata.cpp) | xargs -P "$jobs" -I{} sh -c \
        'em++ -std=c++17 -O2 -fexceptions -DU_COMMON_IMPLEMENTATION -DU_STATIC_IMPLEMENTATION -DU_ATTRIBUTE_DEPRECATED= \
            -I"$0/common" -c "$0/common/$1" -o "$2/$(basename "$1" .cpp).o"' "$src" {} "$objs"
    rm -f "$prefix/lib/libicuuc.a"
    emar rcs "$prefix/lib/libicuuc.a" "$objs"/*.o
    mkdir -p "$prefix/include/unicode" "$prefix/share/icu"
    cp "$src/common/unicode/"*.h "$prefix/include/unicode/"
    cp "$src/data/in/nfkc.nrm" "$prefix/share/icu/"
}

for lib in "${libraries[@]}"; do
    declare -F "build_$lib" >/dev/null || { echo "build-deps.sh: no library $lib" >&2; exit 2; }
    stamp=$( (rows_of "$lib"; declare -f "build_$lib" cmake_build; emcc --version | sed -n 1p) | sha256sum | cut -c1-16)
    if [ "$(cat "$out/done/$lib" 2>/dev/null)" = "$stamp" ]; then echo "$lib: up to date"; continue; fi
    echo "$lib: building (log: $out/logs/$lib.log)"
    start=$(date +%s)
    # In the background so that `set -e` holds inside (a subshell tested by `if` ignores it).
    (dir=$(unpack "$lib"); "build_$lib" "$dir") > "$out/logs/$lib.log" 2>&1 &
    if ! wait $!; then
        echo "$lib: failed; the end of its log:" >&2
        tail -20 "$out/logs/$lib.log" >&2
        exit 1
    fi
    echo "$stamp" > "$out/done/$lib"
    echo "$lib $(( $(date +%s) - start ))" >> "$out/times.txt"
    echo "$lib: built in $(( $(date +%s) - start )) s"
done
