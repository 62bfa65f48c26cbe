"""bundle"""
