" Filetype detection for skillscript (*.skill.md). The built-in rules have
" already called such a file markdown by the time this runs, so the filetype
" is set outright instead of with :setfiletype.
autocmd BufRead,BufNewFile *.skill.md set filetype=skillscript
