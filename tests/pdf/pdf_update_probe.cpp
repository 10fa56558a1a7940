// SPDX-License-Identifier: MIT
// pdf_update_probe: exercises pith::pdf on one file (used by tests/pdf.cmake and for timing).
//   pdf_update_probe IN [OUT] [--password PW] [--first-page-only] [--quiet]
// Opens IN, reads the catalog and the geometry of every page (or only page 1),
// and, if OUT is given, writes an incremental update that adds one object and
// replaces the Info dictionary (copy + /PithProbe). Exit 0 on success, 2 on a
// pith::Error (message on stderr), anything else is a bug.
#include "core/error.hpp"
#include "pdf/file.hpp"
#include "pdf/update.hpp"

#include <cstring>
#include <iostream>

using namespace PoDoFo;

int main(int argc, char** argv) {
    std::string in, out;
    pith::pdf::OpenOptions opt;
    bool first_only = false, quiet = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--password" && i + 1 < argc) {
            opt.password = argv[++i];
            opt.password_given = true;
        } else if (a == "--first-page-only") {
            first_only = true;
        } else if (a == "--quiet") {
            quiet = true;
        } else if (in.empty()) {
            in = a;
        } else {
            out = a;
        }
    }
    if (in.empty()) {
        std::cerr << "usage: pdf_update_probe IN [OUT] [--password PW] [--first-page-only]\n";
        return 64;
    }
    try {
        auto f = pith::pdf::File::open(in, opt);
        const PdfObject& cat = f.catalog();
        (void)cat;
        int n = first_only ? 1 : f.page_count();
        for (int i = 0; i < n; ++i) {
            pith::pdf::Page p = f.page(i);
            if (!quiet && (i == 0 || i == n - 1))
                std::cout << "page " << i + 1 << " ref " << p.ref.ObjectNumber() << " media [" << p.media_box.llx
                          << " " << p.media_box.lly << " " << p.media_box.urx << " " << p.media_box.ury
                          << "] crop [" << p.crop_box.llx << " " << p.crop_box.lly << " " << p.crop_box.urx << " "
                          << p.crop_box.ury << "] rotate " << p.rotate << " resources "
                          << (p.resources_from == pith::pdf::ResourcesFrom::Own
                                  ? "own"
                                  : p.resources_from == pith::pdf::ResourcesFrom::Inherited ? "inherited" : "absent")
                          << "\n";
        }
        if (!quiet) {
            auto revs = f.revisions();
            std::cout << "pages " << (first_only ? -1 : n) << " version " << f.version() << " xref "
                      << (f.xref_kind() == pith::pdf::XrefKind::Stream ? "stream" : "table") << " revisions "
                      << revs.size() << " max_obj " << f.max_object_number() << " encrypted " << f.encrypted()
                      << " reconstructed " << f.reconstructed() << " defects " << f.defects().size() << "\n";
            for (const auto& w : f.defects()) std::cout << "defect: " << w << "\n";
            if (const PdfObject* info = f.info()) std::cout << "info: " << pith::pdf::to_pdf_string(*info) << "\n";
        }
        if (!out.empty()) {
            pith::pdf::Update u(f);
            u.set_comment("%PithUpdate probe");
            PdfDictionary extra;
            extra.AddKey("Type", PdfName("PithProbe"));
            extra.AddKey("Note", PdfString("added by pdf_update_probe"));
            PdfReference added = u.add(PdfObject(extra));
            PdfDictionary info;
            if (const PdfObject* i = f.info()) info = i->GetDictionary();
            info.AddKey("PithProbe", PdfString("probe (with a string to encrypt)"));
            info.AddKey("PithProbeRef", added);
            PdfReference iref = f.info_ref();
            if (iref.ObjectNumber()) {
                u.replace(iref, PdfObject(info));
            } else {
                u.set_info(u.add(PdfObject(info)));
            }
            if (out == "-") u.write(std::cout);
            else u.write_file(out);
        }
    } catch (const pith::Error& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
