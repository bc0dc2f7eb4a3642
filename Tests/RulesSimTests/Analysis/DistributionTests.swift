import Foundation
import RulesSim
import Testing

/// The distributions against SciPy 1.17: every expected value below is printed by
/// `python3 scripts/reference/analysis_reference.py`, under the same name.
@Suite struct DistributionTests {
    /// `t.ppf(p, df)`, non-integer degrees of freedom included.
    @Test(arguments: [
        (0.975, 1.0, 12.706204736174694), (0.995, 1, 63.656741162871526), (0.9, 1, 3.0776835371752544),
        (1e-10, 1, -3183098861.8379064), (0.975, 2, 4.302652729749462), (0.995, 2, 9.924843200918287),
        (0.9, 2, 1.8856180831641272), (1e-10, 2, -70710.67810804816), (0.975, 3.7, 2.8675207071911895),
        (0.995, 3.7, 4.8692522532278275), (0.9, 3.7, 1.5575658388615072), (1e-10, 3.7, -622.7508025168837),
        (0.975, 12.25, 2.1738913883920628), (0.995, 12.25, 3.043228310411185), (0.9, 12.25, 1.3546081876636553),
        (1e-10, 12.25, -18.87345566323609), (0.975, 150.5, 1.9758519492008906), (0.995, 150.5, 2.6088910314930924),
        (0.9, 150.5, 1.287201994048673), (1e-10, 150.5, -6.826533217433977), (0.975, 10000.5, 1.9602012280270402),
        (0.995, 10000.5, 2.5763210220781843), (0.9, 10000.5, 1.281636225497195), (1e-10, 10000.5, -6.367941021183668),
    ])
    func tQuantilesAreSciPys(p: Double, df: Double, expected: Double) {
        let t = Distribution.tQuantile(p, degreesOfFreedom: df)
        #expect(close(t, expected), "t.ppf(\(p), \(df)) = \(t), SciPy \(expected)")
        // Symmetric, and the CDF's inverse.
        #expect(close(Distribution.tQuantile(1 - p, degreesOfFreedom: df), -expected, 1e-6))
        #expect(close(Distribution.tCDF(t, degreesOfFreedom: df), p, 1e-9))
    }

    /// `t.cdf(t, df)`.
    @Test(arguments: [
        (-3.2, 3.7, 0.018370080354780008), (0.5, 3.7, 0.6773321833400341), (2.1, 3.7, 0.9453676474588877),
        (40.0, 3.7, 0.9999974306875089), (-3.2, 12.25, 0.003726675416165799), (0.5, 12.25, 0.6870321991991704),
        (2.1, 12.25, 0.9714576472229761), (40.0, 12.25, 0.9999999999999882), (-3.2, 150.5, 0.0008381553683250807),
        (0.5, 150.5, 0.6910973226722906), (2.1, 150.5, 0.9813015181235899), (40.0, 150.5, 1.0),
    ])
    func tCDFIsSciPys(t: Double, df: Double, expected: Double) {
        let p = Distribution.tCDF(t, degreesOfFreedom: df)
        #expect(close(p, expected), "t.cdf(\(t), \(df)) = \(p), SciPy \(expected)")
    }

    /// `norm.ppf(p)` (AS 241) and `norm.cdf(z)`, tails included.
    @Test func theNormalIsSciPys() {
        let quantiles = [
            (1e-10, -6.361340902404056), (0.025, -1.9599639845400545), (0.5, 0.0), (0.975, 1.959963984540054),
            (0.3, -0.5244005127080409),
        ]
        for (p, expected) in quantiles {
            #expect(close(Distribution.normalQuantile(p), expected, 1e-14), "norm.ppf(\(p))")
        }
        let cdf = [
            (-20.0, 2.7536241186061556e-89), (-1.96, 0.024997895148220435), (0.0, 0.5), (1.0, 0.8413447460685429),
            (5.0, 0.9999997133484281),
        ]
        for (z, expected) in cdf {
            #expect(close(Distribution.normalCDF(z), expected, 1e-12), "norm.cdf(\(z))")
        }
    }

    /// `chi2.sf(x, df)`: tails down to 1e-15, and 9,999 degrees of freedom (10,000 arms).
    @Test(arguments: [
        (0.5, 1.0, 0.47950012218695337), (3.84, 1, 0.05004352124870519), (27.67, 1, 1.4387678470064492e-07),
        (60.0, 1, 9.485737571073857e-15), (1.0, 2, 0.6065306597126334), (13.8, 2, 0.0010077854290485102),
        (50.0, 2, 1.3887943864964e-11), (9800.0, 9999, 0.9210156017486917), (9999.0, 9999, 0.49811927192721916),
        (10300.0, 9999, 0.017334231854316547), (11000.0, 9999, 3.446374242124639e-12),
    ])
    func chiSquareSurvivalIsSciPys(x: Double, df: Double, expected: Double) {
        let p = Distribution.chiSquareSurvival(x, degreesOfFreedom: df)
        #expect(close(p, expected), "chi2.sf(\(x), \(df)) = \(p), SciPy \(expected)")
    }

    /// The quantile falls with the degrees of freedom, towards the normal's, without a jump.
    @Test func tQuantilesFallSmoothlyTowardsTheNormal() {
        let dfs = stride(from: 1.0, through: 400, by: 0.25)
        let quantiles = dfs.map { Distribution.tQuantile(0.975, degreesOfFreedom: $0) }
        #expect(zip(quantiles, quantiles.dropFirst()).allSatisfy { $0 > $1 })
        #expect(abs(Distribution.tQuantile(0.975, degreesOfFreedom: 1e9) - 1.959963984540054) < 1e-8)
    }
}
