module sudokuar

go 1.26.8
