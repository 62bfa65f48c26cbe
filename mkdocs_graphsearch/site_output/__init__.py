"""Search written into a built site: the browser runtime's files, the tags injected into every
page and the theme fixes. Shared by the MkDocs plugin and `graphsearch build`; knows neither."""
