"""Method names of one long word each, as model-zoo benchmarks have them (scikit-learn classes).

The report's data table turns such names upright instead of breaking them (report.css); the
layout, table-sweep and browser tests use the same names.
"""

CLASS_NAMES = [
    "HistGradientBoostingClassifier",
    "RandomForestClassifier",
    "ExtraTreesClassifier",
    "LogisticRegressionCV",
    "KNeighborsClassifier",
    "GaussianProcessClassifier",
    "MLPClassifier",
    "AdaBoostClassifier",
    "QuadraticDiscriminantAnalysis",
    "DecisionTreeClassifier",
]
