#include "stamp/placement.hpp"

#include "core/error.hpp"
#include "core/files.hpp"
#include "core/sanitizer.hpp"
#include "text/page_ink_abi.h"
#include "verify/text_module.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace pith::stamp::placement {
namespace {

constexpr rlim_t kChildSeconds = 6;                    // CPU seconds: the render stops at kRenderSeconds
constexpr rlim_t kChildMemory = rlim_t{2} << 30;       // bytes of address space

struct Received {
    InkMap map;
    bool rendered = false;
};

void on_ink(void* context, const PithPageInk* facts) {
    auto* r = static_cast<Received*>(context);
    r->map.width = facts->width;
    r->map.height = facts->height;
    r->map.columns = facts->columns;
    r->map.rows = facts->rows;
    r->map.ink.assign(facts->ink, facts->ink + static_cast<std::size_t>(facts->columns) * facts->rows);
    r->rendered = facts->rendered != 0;
}

// The child's message: "W H columns rows rendered\n" (C99 hex floats), then the ink bytes.
std::string encode(const Received& r) {
    char head[160];
    std::snprintf(head, sizeof head, "%a %a %d %d %d\n", r.map.width, r.map.height, r.map.columns, r.map.rows,
                  r.rendered ? 1 : 0);
    return head + std::string(r.map.ink.begin(), r.map.ink.end());
}

std::optional<Received> decode(const std::string& message) {
    const std::size_t eol = message.find('\n');
    if (eol == std::string::npos || eol > 150) return std::nullopt;
    Received r;
    int rendered = 0;
    if (std::sscanf(message.substr(0, eol).c_str(), "%la %la %d %d %d", &r.map.width, &r.map.height, &r.map.columns,
                    &r.map.rows, &rendered) != 5)
        return std::nullopt;
    if (r.map.columns <= 0 || r.map.rows <= 0 || !(r.map.width > 0) || !(r.map.height > 0) ||
        message.size() - eol - 1 != static_cast<std::size_t>(r.map.columns) * static_cast<std::size_t>(r.map.rows))
        return std::nullopt;
    r.map.ink.assign(message.begin() + static_cast<std::ptrdiff_t>(eol) + 1, message.end());
    r.rendered = rendered == 1;
    return r;
}

// Everything the child writes, or nullopt when it has not finished by `deadline` (a child stuck
// outside the render's own time limit, e.g. in fontconfig building its cache).
std::optional<std::string> read_all(int fd, std::chrono::steady_clock::time_point deadline) {
    std::string message;
    char buffer[65536];
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return std::nullopt;
        struct pollfd p = {fd, POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) return ready == 0 ? std::nullopt : std::optional<std::string>(message);
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return message;
        message.append(buffer, static_cast<std::size_t>(n));
    }
}

int reap(pid_t child) {
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

}  // namespace

double InkMap::inked(double x0, double y0, double x1, double y1) const {
    if (columns <= 0 || rows <= 0) return 0;
    const double sx = columns / width, sy = rows / height;
    // Cells touching the box; y turns from "up from the bottom" to "rows from the top".
    const int c0 = std::clamp(static_cast<int>(std::floor(x0 * sx)), 0, columns);
    const int c1 = std::clamp(static_cast<int>(std::ceil(x1 * sx)), 0, columns);
    const int r0 = std::clamp(static_cast<int>(std::floor((height - y1) * sy)), 0, rows);
    const int r1 = std::clamp(static_cast<int>(std::ceil((height - y0) * sy)), 0, rows);
    if (c1 <= c0 || r1 <= r0) return 0;
    long dark = 0;
    for (int r = r0; r < r1; ++r)
        for (int c = c0; c < c1; ++c) dark += ink[static_cast<std::size_t>(r) * columns + c] >= kInkLevel;
    return static_cast<double>(dark) / (static_cast<double>(c1 - c0) * (r1 - r0));
}

void* preload() {
    static void* fn = nullptr;
    if (!fn) {
        fn = text_module::symbol(PITH_PAGE_INK_SYMBOL);
        // An empty call sets up poppler's global state and returns 0: done once, before any fork.
        reinterpret_cast<PithPageInkFn>(fn)(nullptr, 0, 0, "", kDpi, 0, nullptr, nullptr);
    }
    return fn;
}

std::optional<InkMap> measure(std::string_view pdf, int index, const std::string& password, std::string& why) {
    PithPageInkFn fn = nullptr;
    try {  // loaded here, before the fork (a batch loads it once, before its workers: preload())
        fn = reinterpret_cast<PithPageInkFn>(preload());
    } catch (const Error& e) {
        why = e.what();
        return std::nullopt;
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<long>(kWallSeconds * 1000));
    int fds[2];
    if (::pipe(fds) != 0) {
        why = std::string("cannot create a pipe: ") + std::strerror(errno);
        return std::nullopt;
    }
    std::fflush(nullptr);
    const pid_t child = ::fork();
    if (child < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        why = std::string("cannot start poppler's process: ") + std::strerror(errno);
        return std::nullopt;
    }
    if (child == 0) {  // poppler parses the whole file its own way: a crash or a hang costs the measure only
        ::close(fds[0]);
#if PITH_TEST_HOOKS
        if (std::getenv("PITH_TEST_PLACEMENT_CRASH")) std::abort();  // test hooks: poppler crashes, or hangs
        if (std::getenv("PITH_TEST_PLACEMENT_HANG")) ::pause();
#endif
        struct rlimit cpu = {kChildSeconds, kChildSeconds + 1};
        ::setrlimit(RLIMIT_CPU, &cpu);
#ifndef PITH_ADDRESS_SANITIZER
        struct rlimit memory = {kChildMemory, kChildMemory};
        ::setrlimit(RLIMIT_AS, &memory);
#endif
        Received r;
        const int ok = fn(pdf.data(), pdf.size(), index, password.c_str(), kDpi, kRenderSeconds, &on_ink, &r);
        ::_exit(ok && write_all(fds[1], encode(r)) ? 0 : 2);
    }
    ::close(fds[1]);
    const std::optional<std::string> received = read_all(fds[0], deadline);
    ::close(fds[0]);
    if (!received) ::kill(child, SIGKILL);
    const int status = reap(child);
    if (!received) {
        why = "poppler did not finish within " + std::to_string(static_cast<int>(kWallSeconds)) + " s";
        return std::nullopt;
    }
    const std::string& message = *received;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 2) {
        why = "poppler cannot render the page";
        return std::nullopt;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        why = "poppler crashed or ran out of time or memory";
        return std::nullopt;
    }
    std::optional<Received> r = decode(message);
    if (!r) {
        why = "poppler's process sent a page that does not decode";
        return std::nullopt;
    }
    if (!r->rendered) {
        why = "the page was not rendered within " + std::to_string(static_cast<int>(kRenderSeconds)) + " s";
        return std::nullopt;
    }
    return std::move(r->map);
}

std::string corner_name(Corner c) {
    switch (c) {
        case Corner::TopLeft: return "top-left";
        case Corner::TopRight: return "top-right";
        case Corner::BottomLeft: return "bottom-left";
        case Corner::BottomRight: return "bottom-right";
    }
    return "top-right";
}

std::vector<Spot> candidates(double view_w, double view_h, double w, double h, double margin_x, double margin_y,
                             Corner preferred) {
    const bool left = preferred == Corner::TopLeft || preferred == Corner::BottomLeft;
    const bool top = preferred == Corner::TopLeft || preferred == Corner::TopRight;
    const double x_left = margin_x, x_right = view_w - margin_x - w;
    const double y_top = view_h - margin_y - h, y_bottom = margin_y;
    auto corner = [&](bool l, bool t) {
        const Corner c = l ? (t ? Corner::TopLeft : Corner::BottomLeft) : (t ? Corner::TopRight : Corner::BottomRight);
        return Spot{l ? x_left : x_right, t ? y_top : y_bottom, corner_name(c) + " corner"};
    };
    std::vector<Spot> out = {corner(left, top), corner(!left, top), corner(left, !top), corner(!left, !top)};
    for (bool t : {top, !top}) {
        // From the preferred side inwards; the corners themselves are already listed.
        const int steps = static_cast<int>(std::floor((x_right - x_left) / kStep));
        for (int i = 1; i < steps; ++i) {
            const double x = left ? x_left + i * kStep : x_right - i * kStep;
            out.push_back({x, t ? y_top : y_bottom, t ? "top margin" : "bottom margin"});
        }
    }
    return out;
}

double inked_around(const InkMap& map, const Spot& spot, double w, double h) {
    return map.inked(spot.x - kClearance, spot.y - kClearance, spot.x + w + kClearance, spot.y + h + kClearance);
}

Choice choose(const InkMap& map, double w, double h, double margin_x, double margin_y, Corner preferred) {
    const std::vector<Spot> spots = candidates(map.width, map.height, w, h, margin_x, margin_y, preferred);
    Choice best;
    best.inked = 2;
    for (std::size_t i = 0; i < spots.size(); ++i) {
        const double inked = inked_around(map, spots[i], w, h);
        if (inked == 0) {
            best = {spots[i], 0, true, ""};
            best.why = i == 0 ? "the page paints nothing there"
                              : "the page paints nothing there; " + std::to_string(i) + " closer position" +
                                    (i == 1 ? " was" : "s were") + " taken by the page's content";
            return best;
        }
        if (inked < best.inked) best = {spots[i], inked, false, ""};
    }
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "no free spot at any of %zu positions (corners, top and bottom margins): drawn boxed on an opaque "
                  "background where the page paints least (%.0f%% of it)",
                  spots.size(), 100 * best.inked);
    best.why = buf;
    return best;
}

}  // namespace pith::stamp::placement
