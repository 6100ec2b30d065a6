"""The use cases, one module per feature. They know no HTTP: the API calls them,
and so do the processes. They orchestrate the pure layers (games, analysis,
tournaments) and the store.
"""
