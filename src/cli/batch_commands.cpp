// pith batch.
#include "cli/commands.hpp"

namespace pith::cli {

void register_batch_commands(CLI::App&, int&) {}

}  // namespace pith::cli
