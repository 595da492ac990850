# swift-argument-parser's bash completion offers only the subcommands of a command that has a
# default subcommand, so `maeil focus --format <Tab>` offered "show export". In `focus` (whose
# default is `focus show`), words that start with no subcommand are completed as `focus
# show`'s: its options and their values; with nothing typed yet, the subcommands too.
/^_maeil_focus\(\) \{$/ { in_focus = 1 }
in_focus && /__maeil_offer_flags_options 0/ {
    print "    if [[ \"${unparsed_words[0]:-}\" != show && \"${unparsed_words[0]:-}\" != export ]]; then"
    print "        local -ir typed=${#unparsed_words[@]}"
    print "        _maeil_focus_show"
    print "        if [[ ${typed} -le 1 && \"${cur}\" != -* ]]; then COMPREPLY+=($(compgen -W 'show export' -- \"${cur}\")); fi"
    print "        return"
    print "    fi"
    in_focus = 0
}
{ print }
