// The Qt SCXML side of scripts/bench-scxml.sh: loads an SCXML document with Qt's own
// runtime (QScxmlStateMachine, the null data model), feeds it the events of NAME.events
// (one per line) and processes them in-process, printing events per second, the parse time
// per state and the final configuration, for comparison with FlowKit's FlowChartMachine on
// the same document. Built by the script against Debian's qt6-scxml-dev; FlowKit never
// depends on it.
//
//     qt-scxml-driver DOCUMENT.scxml EVENTS_FILE REPETITIONS
//
// Output, one line: `qt NAME events_per_s=E parse_ns_per_state=P states=N config=A,B,C`
// (E the median over the repetitions; each repetition a fresh machine, started before the
// clock runs; the clock covers submitting every event and processing the queue).
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QScxmlStateMachine>
#include <QStringList>
#include <QTextStream>
#include <algorithm>
#include <cstdio>
#include <vector>

static QScxmlStateMachine *load(const QString &path) {
    QScxmlStateMachine *machine = QScxmlStateMachine::fromFile(path);
    if (!machine->parseErrors().isEmpty()) {
        for (const QScxmlError &error : machine->parseErrors())
            std::fprintf(stderr, "qt-scxml-driver: %s\n", qPrintable(error.toString()));
        std::exit(2);
    }
    return machine;
}

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    if (argc != 4) {
        std::fprintf(stderr, "usage: qt-scxml-driver DOCUMENT.scxml EVENTS_FILE REPETITIONS\n");
        return 2;
    }
    const QString path = QString::fromLocal8Bit(argv[1]);
    QFile eventsFile(QString::fromLocal8Bit(argv[2]));
    if (!eventsFile.open(QIODevice::ReadOnly | QIODevice::Text)) {
        std::fprintf(stderr, "qt-scxml-driver: cannot read %s\n", argv[2]);
        return 2;
    }
    QStringList events;
    QTextStream in(&eventsFile);
    while (!in.atEnd()) {
        const QString line = in.readLine().trimmed();
        if (!line.isEmpty()) events << line;
    }
    const int repetitions = std::max(1, std::atoi(argv[3]));

    // Parsing: the document read and the machine built, per state.
    QElapsedTimer parseClock;
    parseClock.start();
    QScxmlStateMachine *probe = load(path);
    const qint64 parseNanoseconds = parseClock.nsecsElapsed();
    probe->start();
    QCoreApplication::processEvents();
    const int states = probe->stateNames(false).size();
    delete probe;

    std::vector<double> rates;
    QStringList configuration;
    for (int repetition = 0; repetition < repetitions + 1; ++repetition) {
        QScxmlStateMachine *machine = load(path);
        machine->start();
        QCoreApplication::processEvents();
        QElapsedTimer clock;
        clock.start();
        for (const QString &event : events) machine->submitEvent(event);
        // Qt queues submitted events and runs the whole queue from its event loop (the
        // final configuration, compared with FlowKit's, shows every event was processed).
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
        const qint64 nanoseconds = clock.nsecsElapsed();
        if (repetition > 0) rates.push_back(events.size() * 1e9 / double(nanoseconds));
        configuration = machine->activeStateNames(false);
        delete machine;
    }
    std::sort(rates.begin(), rates.end());
    configuration.sort();
    std::printf("qt %s events_per_s=%.0f parse_ns_per_state=%.0f states=%d config=%s\n",
                qPrintable(QFileInfo(path).completeBaseName()), rates[rates.size() / 2],
                double(parseNanoseconds) / std::max(1, states), states,
                qPrintable(configuration.join(',')));
    return 0;
}
