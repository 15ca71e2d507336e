" Buffer settings for skillscript files.
if exists('b:did_ftplugin')
  finish
endif
let b:did_ftplugin = 1

setlocal commentstring=#\ %s
setlocal comments=:#
setlocal expandtab
setlocal shiftwidth=4
setlocal softtabstop=4
setlocal tabstop=4
setlocal autoindent
setlocal iskeyword=@,48-57,_,192-255,-
setlocal foldmethod=indent
setlocal foldlevel=99
setlocal formatoptions-=t

let b:undo_ftplugin = 'setlocal commentstring< comments< expandtab< shiftwidth<'
      \ . ' softtabstop< tabstop< autoindent< iskeyword< foldmethod< foldlevel<'
      \ . ' formatoptions<'
