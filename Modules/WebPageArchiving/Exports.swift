@_exported import WebPage
