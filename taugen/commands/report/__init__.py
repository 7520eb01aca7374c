"""`taugen report`: one self-contained HTML page of a project's topology and capacity (issue 12).

model -> what the page shows, built from the resolved clusters (topology, capacity), a diff
(changes) and a simulation; payload and tables -> the page's data and its plain tables; page ->
the HTML with the CSS and script of `assets/` inlined.
"""
