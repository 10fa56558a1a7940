// pith stamp, verify, extract.
#include "cli/commands.hpp"

namespace pith::cli {

void register_pdf_commands(CLI::App&, int&) {}

}  // namespace pith::cli
