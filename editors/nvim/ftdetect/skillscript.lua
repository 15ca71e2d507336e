-- Filetype detection for skillscript (*.skill.md) through vim.filetype.add,
-- which Neovim 0.8 and later consult first. A pattern with priority >= 0
-- wins over the ".md" extension rule. ftdetect/skillscript.vim covers 0.7.
if vim.filetype and vim.filetype.add then
  vim.filetype.add({
    pattern = {
      ['.*%.skill%.md'] = { 'skillscript', { priority = 10 } },
    },
  })
end
