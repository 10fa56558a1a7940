// SPDX-License-Identifier: MIT
// Reads one JSON text per line and prints pith's canonical form of each, one per line
// ("ERROR <message>" where pith refuses it). tests/oracle/json_differential.py drives it.
#include "core/error.hpp"
#include "core/json.hpp"

#include <iostream>
#include <string>

int main() {
    std::ios::sync_with_stdio(false);
    std::string line;
    while (std::getline(std::cin, line)) {
        try {
            std::cout << pith::canonical_json(pith::parse_json(line, "input")) << '\n';
        } catch (const pith::Error& e) {
            std::cout << "ERROR " << e.what() << '\n';
        }
    }
    return 0;
}
