module @jit_fn attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32xf32>, %arg4: tensor<32x8xf32>, %arg5: tensor<8xf32>, %arg6: tensor<?x16xf32>) -> (tensor<?x8xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<32> : tensor<i32>
    %c_1 = stablehlo.constant dense<-1> : tensor<i32>
    %c_2 = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg6, dim = 0 : (tensor<?x16xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[2].shape = (b, 16). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[2].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = stablehlo.convert %0 : tensor<i32>
    %3 = stablehlo.multiply %2, %c_1 : tensor<i32>
    %4 = stablehlo.add %3, %c_0 : tensor<i32>
    %5 = stablehlo.compare GE, %4, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.convert %0 : tensor<i32>
    %7 = stablehlo.multiply %6, %c_1 : tensor<i32>
    %8 = stablehlo.add %7, %c_0 : tensor<i32>
    stablehlo.custom_call @shape_assertion(%5, %8, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the symbolic shape constraint b <= 32. Expected '- b + 32' to be greater or equal to 0, but found {0}.  Using the following polymorphic shapes specifications: args[2].shape = (b, 16). Obtained dimension variables: 'b' = {1} from specification 'b' for dimension args[2].shape[0] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
    %9 = call @_wrapped_jax_export_main(%0, %arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6) : (tensor<i32>, tensor<16x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x8xf32>, tensor<8xf32>, tensor<?x16xf32>) -> tensor<?x8xf32>
    return %9 : tensor<?x8xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<16x32xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32xf32>, %arg4: tensor<32xf32>, %arg5: tensor<32x8xf32>, %arg6: tensor<8xf32>, %arg7: tensor<?x16xf32>) -> (tensor<?x8xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<1.12837911> : tensor<f32>
    %cst_0 = stablehlo.constant dense<-0.37612626> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.112835854> : tensor<f32>
    %cst_2 = stablehlo.constant dense<-0.0268538129> : tensor<f32>
    %cst_3 = stablehlo.constant dense<0.00518832775> : tensor<f32>
    %cst_4 = stablehlo.constant dense<-8.0101937E-4> : tensor<f32>
    %cst_5 = stablehlo.constant dense<7.85386146E-5> : tensor<f32>
    %cst_6 = stablehlo.constant dense<-88.7228394> : tensor<f32>
    %cst_7 = stablehlo.constant dense<0.564189494> : tensor<f32>
    %cst_8 = stablehlo.constant dense<-0.282076746> : tensor<f32>
    %cst_9 = stablehlo.constant dense<0.42184633> : tensor<f32>
    %cst_10 = stablehlo.constant dense<-1.01526523> : tensor<f32>
    %cst_11 = stablehlo.constant dense<2.92101908> : tensor<f32>
    %cst_12 = stablehlo.constant dense<-7.49551868> : tensor<f32>
    %cst_13 = stablehlo.constant dense<1.297720e+01> : tensor<f32>
    %cst_14 = stablehlo.constant dense<-10.477664> : tensor<f32>
    %cst_15 = stablehlo.constant dense<0.563825965> : tensor<f32>
    %cst_16 = stablehlo.constant dense<-0.274112701> : tensor<f32>
    %cst_17 = stablehlo.constant dense<3.404880e-01> : tensor<f32>
    %cst_18 = stablehlo.constant dense<-0.494451523> : tensor<f32>
    %cst_19 = stablehlo.constant dense<0.621000468> : tensor<f32>
    %cst_20 = stablehlo.constant dense<-0.582473278> : tensor<f32>
    %cst_21 = stablehlo.constant dense<0.368742466> : tensor<f32>
    %cst_22 = stablehlo.constant dense<-0.138703942> : tensor<f32>
    %cst_23 = stablehlo.constant dense<2.326820e-02> : tensor<f32>
    %cst_24 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %cst_25 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<8> : tensor<1xi32>
    %cst_26 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %c_27 = stablehlo.constant dense<0> : tensor<i32>
    %cst_28 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %c_29 = stablehlo.constant dense<1> : tensor<1xi32>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_31 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %cst_32 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %c_33 = stablehlo.constant dense<32> : tensor<1xi32>
    %0 = stablehlo.dot_general %arg7, %arg1, contracting_dims = [1] x [0] : (tensor<?x16xf32>, tensor<16x32xf32>) -> tensor<?x32xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %2 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %3 = stablehlo.concatenate %2, %c_33, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %4 = stablehlo.dynamic_broadcast_in_dim %1, %3, dims = [0, 1] : (tensor<1x32xf32>, tensor<2xi32>) -> tensor<?x32xf32>
    %5 = stablehlo.add %0, %4 : tensor<?x32xf32>
    %6 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %7 = stablehlo.concatenate %6, %c_33, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %8 = stablehlo.dynamic_broadcast_in_dim %cst_32, %7, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %9 = stablehlo.multiply %8, %5 : tensor<?x32xf32>
    %10 = stablehlo.negate %5 : tensor<?x32xf32>
    %11 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %12 = stablehlo.concatenate %11, %c_33, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %13 = stablehlo.dynamic_broadcast_in_dim %cst_31, %12, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %14 = stablehlo.multiply %10, %13 : tensor<?x32xf32>
    %15 = stablehlo.multiply %14, %14 : tensor<?x32xf32>
    %16 = stablehlo.negate %15 : tensor<?x32xf32>
    %17 = stablehlo.abs %14 : tensor<?x32xf32>
    %18 = stablehlo.get_dimension_size %14, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %19 = stablehlo.reshape %18 : (tensor<i32>) -> tensor<1xi32>
    %20 = stablehlo.get_dimension_size %14, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %21 = stablehlo.reshape %20 : (tensor<i32>) -> tensor<1xi32>
    %22 = stablehlo.concatenate %19, %21, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %23 = stablehlo.dynamic_broadcast_in_dim %cst_25, %22, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %24 = stablehlo.divide %23, %15 : tensor<?x32xf32>
    %25 = stablehlo.exponential %16 : tensor<?x32xf32>
    %26 = stablehlo.divide %23, %17 : tensor<?x32xf32>
    %27 = stablehlo.multiply %25, %26 : tensor<?x32xf32>
    %28 = stablehlo.get_dimension_size %14, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %29 = stablehlo.reshape %28 : (tensor<i32>) -> tensor<1xi32>
    %30 = stablehlo.get_dimension_size %14, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %31 = stablehlo.reshape %30 : (tensor<i32>) -> tensor<1xi32>
    %32 = stablehlo.concatenate %29, %31, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %33 = stablehlo.dynamic_broadcast_in_dim %cst_24, %32, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %34 = stablehlo.compare LT, %17, %33 : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xi1>
    %35 = stablehlo.get_dimension_size %24, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %36 = stablehlo.reshape %35 : (tensor<i32>) -> tensor<1xi32>
    %37 = stablehlo.get_dimension_size %24, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %38 = stablehlo.reshape %37 : (tensor<i32>) -> tensor<1xi32>
    %39 = stablehlo.concatenate %36, %38, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %40 = stablehlo.dynamic_broadcast_in_dim %cst_23, %39, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %41 = stablehlo.multiply %40, %24 : tensor<?x32xf32>
    %42 = stablehlo.get_dimension_size %24, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %43 = stablehlo.reshape %42 : (tensor<i32>) -> tensor<1xi32>
    %44 = stablehlo.get_dimension_size %24, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %45 = stablehlo.reshape %44 : (tensor<i32>) -> tensor<1xi32>
    %46 = stablehlo.concatenate %43, %45, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %47 = stablehlo.dynamic_broadcast_in_dim %cst_22, %46, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %48 = stablehlo.add %41, %47 : tensor<?x32xf32>
    %49 = stablehlo.multiply %48, %24 : tensor<?x32xf32>
    %50 = stablehlo.get_dimension_size %24, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %51 = stablehlo.reshape %50 : (tensor<i32>) -> tensor<1xi32>
    %52 = stablehlo.get_dimension_size %24, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %53 = stablehlo.reshape %52 : (tensor<i32>) -> tensor<1xi32>
    %54 = stablehlo.concatenate %51, %53, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %55 = stablehlo.dynamic_broadcast_in_dim %cst_21, %54, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %56 = stablehlo.add %49, %55 : tensor<?x32xf32>
    %57 = stablehlo.multiply %56, %24 : tensor<?x32xf32>
    %58 = stablehlo.get_dimension_size %24, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %59 = stablehlo.reshape %58 : (tensor<i32>) -> tensor<1xi32>
    %60 = stablehlo.get_dimension_size %24, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %61 = stablehlo.reshape %60 : (tensor<i32>) -> tensor<1xi32>
    %62 = stablehlo.concatenate %59, %61, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %63 = stablehlo.dynamic_broadcast_in_dim %cst_20, %62, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %64 = stablehlo.add %57, %63 : tensor<?x32xf32>
    %65 = stablehlo.multiply %64, %24 : tensor<?x32xf32>
    %66 = stablehlo.get_dimension_size %24, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %67 = stablehlo.reshape %66 : (tensor<i32>) -> tensor<1xi32>
    %68 = stablehlo.get_dimension_size %24, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %69 = stablehlo.reshape %68 : (tensor<i32>) -> tensor<1xi32>
    %70 = stablehlo.concatenate %67, %69, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %71 = stablehlo.dynamic_broadcast_in_dim %cst_19, %70, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %72 = stablehlo.add %65, %71 : tensor<?x32xf32>
    %73 = stablehlo.multiply %72, %24 : tensor<?x32xf32>
    %74 = stablehlo.get_dimension_size %24, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %75 = stablehlo.reshape %74 : (tensor<i32>) -> tensor<1xi32>
    %76 = stablehlo.get_dimension_size %24, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %77 = stablehlo.reshape %76 : (tensor<i32>) -> tensor<1xi32>
    %78 = stablehlo.concatenate %75, %77, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %79 = stablehlo.dynamic_broadcast_in_dim %cst_18, %78, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %80 = stablehlo.add %73, %79 : tensor<?x32xf32>
    %81 = stablehlo.multiply %80, %24 : tensor<?x32xf32>
    %82 = stablehlo.get_dimension_size %24, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %83 = stablehlo.reshape %82 : (tensor<i32>) -> tensor<1xi32>
    %84 = stablehlo.get_dimension_size %24, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %85 = stablehlo.reshape %84 : (tensor<i32>) -> tensor<1xi32>
    %86 = stablehlo.concatenate %83, %85, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %87 = stablehlo.dynamic_broadcast_in_dim %cst_17, %86, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %88 = stablehlo.add %81, %87 : tensor<?x32xf32>
    %89 = stablehlo.multiply %88, %24 : tensor<?x32xf32>
    %90 = stablehlo.get_dimension_size %24, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %91 = stablehlo.reshape %90 : (tensor<i32>) -> tensor<1xi32>
    %92 = stablehlo.get_dimension_size %24, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %93 = stablehlo.reshape %92 : (tensor<i32>) -> tensor<1xi32>
    %94 = stablehlo.concatenate %91, %93, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %95 = stablehlo.dynamic_broadcast_in_dim %cst_16, %94, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %96 = stablehlo.add %89, %95 : tensor<?x32xf32>
    %97 = stablehlo.multiply %96, %24 : tensor<?x32xf32>
    %98 = stablehlo.get_dimension_size %24, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %99 = stablehlo.reshape %98 : (tensor<i32>) -> tensor<1xi32>
    %100 = stablehlo.get_dimension_size %24, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %101 = stablehlo.reshape %100 : (tensor<i32>) -> tensor<1xi32>
    %102 = stablehlo.concatenate %99, %101, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %103 = stablehlo.dynamic_broadcast_in_dim %cst_15, %102, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %104 = stablehlo.add %97, %103 : tensor<?x32xf32>
    %105 = stablehlo.get_dimension_size %24, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %106 = stablehlo.reshape %105 : (tensor<i32>) -> tensor<1xi32>
    %107 = stablehlo.get_dimension_size %24, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %108 = stablehlo.reshape %107 : (tensor<i32>) -> tensor<1xi32>
    %109 = stablehlo.concatenate %106, %108, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %110 = stablehlo.dynamic_broadcast_in_dim %cst_14, %109, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %111 = stablehlo.multiply %110, %24 : tensor<?x32xf32>
    %112 = stablehlo.get_dimension_size %24, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %113 = stablehlo.reshape %112 : (tensor<i32>) -> tensor<1xi32>
    %114 = stablehlo.get_dimension_size %24, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %115 = stablehlo.reshape %114 : (tensor<i32>) -> tensor<1xi32>
    %116 = stablehlo.concatenate %113, %115, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %117 = stablehlo.dynamic_broadcast_in_dim %cst_13, %116, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %118 = stablehlo.add %111, %117 : tensor<?x32xf32>
    %119 = stablehlo.multiply %118, %24 : tensor<?x32xf32>
    %120 = stablehlo.get_dimension_size %24, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %121 = stablehlo.reshape %120 : (tensor<i32>) -> tensor<1xi32>
    %122 = stablehlo.get_dimension_size %24, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %123 = stablehlo.reshape %122 : (tensor<i32>) -> tensor<1xi32>
    %124 = stablehlo.concatenate %121, %123, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %125 = stablehlo.dynamic_broadcast_in_dim %cst_12, %124, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %126 = stablehlo.add %119, %125 : tensor<?x32xf32>
    %127 = stablehlo.multiply %126, %24 : tensor<?x32xf32>
    %128 = stablehlo.get_dimension_size %24, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %129 = stablehlo.reshape %128 : (tensor<i32>) -> tensor<1xi32>
    %130 = stablehlo.get_dimension_size %24, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %131 = stablehlo.reshape %130 : (tensor<i32>) -> tensor<1xi32>
    %132 = stablehlo.concatenate %129, %131, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %133 = stablehlo.dynamic_broadcast_in_dim %cst_11, %132, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %134 = stablehlo.add %127, %133 : tensor<?x32xf32>
    %135 = stablehlo.multiply %134, %24 : tensor<?x32xf32>
    %136 = stablehlo.get_dimension_size %24, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %137 = stablehlo.reshape %136 : (tensor<i32>) -> tensor<1xi32>
    %138 = stablehlo.get_dimension_size %24, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %139 = stablehlo.reshape %138 : (tensor<i32>) -> tensor<1xi32>
    %140 = stablehlo.concatenate %137, %139, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %141 = stablehlo.dynamic_broadcast_in_dim %cst_10, %140, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %142 = stablehlo.add %135, %141 : tensor<?x32xf32>
    %143 = stablehlo.multiply %142, %24 : tensor<?x32xf32>
    %144 = stablehlo.get_dimension_size %24, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %145 = stablehlo.reshape %144 : (tensor<i32>) -> tensor<1xi32>
    %146 = stablehlo.get_dimension_size %24, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %147 = stablehlo.reshape %146 : (tensor<i32>) -> tensor<1xi32>
    %148 = stablehlo.concatenate %145, %147, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %149 = stablehlo.dynamic_broadcast_in_dim %cst_9, %148, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %150 = stablehlo.add %143, %149 : tensor<?x32xf32>
    %151 = stablehlo.multiply %150, %24 : tensor<?x32xf32>
    %152 = stablehlo.get_dimension_size %24, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %153 = stablehlo.reshape %152 : (tensor<i32>) -> tensor<1xi32>
    %154 = stablehlo.get_dimension_size %24, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %155 = stablehlo.reshape %154 : (tensor<i32>) -> tensor<1xi32>
    %156 = stablehlo.concatenate %153, %155, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %157 = stablehlo.dynamic_broadcast_in_dim %cst_8, %156, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %158 = stablehlo.add %151, %157 : tensor<?x32xf32>
    %159 = stablehlo.multiply %158, %24 : tensor<?x32xf32>
    %160 = stablehlo.get_dimension_size %24, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %161 = stablehlo.reshape %160 : (tensor<i32>) -> tensor<1xi32>
    %162 = stablehlo.get_dimension_size %24, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %163 = stablehlo.reshape %162 : (tensor<i32>) -> tensor<1xi32>
    %164 = stablehlo.concatenate %161, %163, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %165 = stablehlo.dynamic_broadcast_in_dim %cst_7, %164, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %166 = stablehlo.add %159, %165 : tensor<?x32xf32>
    %167 = stablehlo.select %34, %104, %166 : tensor<?x32xi1>, tensor<?x32xf32>
    %168 = stablehlo.multiply %27, %167 : tensor<?x32xf32>
    %169 = stablehlo.get_dimension_size %14, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %170 = stablehlo.reshape %169 : (tensor<i32>) -> tensor<1xi32>
    %171 = stablehlo.get_dimension_size %14, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %172 = stablehlo.reshape %171 : (tensor<i32>) -> tensor<1xi32>
    %173 = stablehlo.concatenate %170, %172, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %174 = stablehlo.dynamic_broadcast_in_dim %cst_6, %173, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %175 = stablehlo.compare LT, %16, %174 : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xi1>
    %176 = stablehlo.get_dimension_size %14, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %177 = stablehlo.reshape %176 : (tensor<i32>) -> tensor<1xi32>
    %178 = stablehlo.get_dimension_size %14, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %179 = stablehlo.reshape %178 : (tensor<i32>) -> tensor<1xi32>
    %180 = stablehlo.concatenate %177, %179, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %181 = stablehlo.dynamic_broadcast_in_dim %cst_30, %180, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %182 = stablehlo.select %175, %181, %168 : tensor<?x32xi1>, tensor<?x32xf32>
    %183 = stablehlo.compare LT, %14, %181 : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xi1>
    %184 = stablehlo.subtract %33, %182 : tensor<?x32xf32>
    %185 = stablehlo.select %183, %184, %182 : tensor<?x32xi1>, tensor<?x32xf32>
    %186 = stablehlo.get_dimension_size %14, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %187 = stablehlo.reshape %186 : (tensor<i32>) -> tensor<1xi32>
    %188 = stablehlo.get_dimension_size %14, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %189 = stablehlo.reshape %188 : (tensor<i32>) -> tensor<1xi32>
    %190 = stablehlo.concatenate %187, %189, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %191 = stablehlo.dynamic_broadcast_in_dim %cst_25, %190, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %192 = stablehlo.multiply %14, %14 : tensor<?x32xf32>
    %193 = stablehlo.get_dimension_size %192, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %194 = stablehlo.reshape %193 : (tensor<i32>) -> tensor<1xi32>
    %195 = stablehlo.get_dimension_size %192, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %196 = stablehlo.reshape %195 : (tensor<i32>) -> tensor<1xi32>
    %197 = stablehlo.concatenate %194, %196, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %198 = stablehlo.dynamic_broadcast_in_dim %cst_5, %197, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %199 = stablehlo.multiply %198, %192 : tensor<?x32xf32>
    %200 = stablehlo.get_dimension_size %192, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %201 = stablehlo.reshape %200 : (tensor<i32>) -> tensor<1xi32>
    %202 = stablehlo.get_dimension_size %192, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %203 = stablehlo.reshape %202 : (tensor<i32>) -> tensor<1xi32>
    %204 = stablehlo.concatenate %201, %203, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %205 = stablehlo.dynamic_broadcast_in_dim %cst_4, %204, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %206 = stablehlo.add %199, %205 : tensor<?x32xf32>
    %207 = stablehlo.multiply %206, %192 : tensor<?x32xf32>
    %208 = stablehlo.get_dimension_size %192, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %209 = stablehlo.reshape %208 : (tensor<i32>) -> tensor<1xi32>
    %210 = stablehlo.get_dimension_size %192, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %211 = stablehlo.reshape %210 : (tensor<i32>) -> tensor<1xi32>
    %212 = stablehlo.concatenate %209, %211, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %213 = stablehlo.dynamic_broadcast_in_dim %cst_3, %212, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %214 = stablehlo.add %207, %213 : tensor<?x32xf32>
    %215 = stablehlo.multiply %214, %192 : tensor<?x32xf32>
    %216 = stablehlo.get_dimension_size %192, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %217 = stablehlo.reshape %216 : (tensor<i32>) -> tensor<1xi32>
    %218 = stablehlo.get_dimension_size %192, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %219 = stablehlo.reshape %218 : (tensor<i32>) -> tensor<1xi32>
    %220 = stablehlo.concatenate %217, %219, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %221 = stablehlo.dynamic_broadcast_in_dim %cst_2, %220, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %222 = stablehlo.add %215, %221 : tensor<?x32xf32>
    %223 = stablehlo.multiply %222, %192 : tensor<?x32xf32>
    %224 = stablehlo.get_dimension_size %192, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %225 = stablehlo.reshape %224 : (tensor<i32>) -> tensor<1xi32>
    %226 = stablehlo.get_dimension_size %192, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %227 = stablehlo.reshape %226 : (tensor<i32>) -> tensor<1xi32>
    %228 = stablehlo.concatenate %225, %227, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %229 = stablehlo.dynamic_broadcast_in_dim %cst_1, %228, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %230 = stablehlo.add %223, %229 : tensor<?x32xf32>
    %231 = stablehlo.multiply %230, %192 : tensor<?x32xf32>
    %232 = stablehlo.get_dimension_size %192, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %233 = stablehlo.reshape %232 : (tensor<i32>) -> tensor<1xi32>
    %234 = stablehlo.get_dimension_size %192, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %235 = stablehlo.reshape %234 : (tensor<i32>) -> tensor<1xi32>
    %236 = stablehlo.concatenate %233, %235, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %237 = stablehlo.dynamic_broadcast_in_dim %cst_0, %236, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %238 = stablehlo.add %231, %237 : tensor<?x32xf32>
    %239 = stablehlo.multiply %238, %192 : tensor<?x32xf32>
    %240 = stablehlo.get_dimension_size %192, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %241 = stablehlo.reshape %240 : (tensor<i32>) -> tensor<1xi32>
    %242 = stablehlo.get_dimension_size %192, dim = 1 : (tensor<?x32xf32>) -> tensor<i32>
    %243 = stablehlo.reshape %242 : (tensor<i32>) -> tensor<1xi32>
    %244 = stablehlo.concatenate %241, %243, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %245 = stablehlo.dynamic_broadcast_in_dim %cst, %244, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %246 = stablehlo.add %239, %245 : tensor<?x32xf32>
    %247 = stablehlo.multiply %14, %246 : tensor<?x32xf32>
    %248 = stablehlo.subtract %191, %247 : tensor<?x32xf32>
    %249 = stablehlo.abs %14 : tensor<?x32xf32>
    %250 = stablehlo.compare LT, %249, %191 : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xi1>
    %251 = stablehlo.select %250, %248, %185 : tensor<?x32xi1>, tensor<?x32xf32>
    %252 = stablehlo.multiply %9, %251 : tensor<?x32xf32>
    %253 = stablehlo.reduce(%252 init: %cst_30) applies stablehlo.add across dimensions = [1] : (tensor<?x32xf32>, tensor<f32>) -> tensor<?xf32>
    %254 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %255 = stablehlo.concatenate %254, %c_29, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %256 = stablehlo.dynamic_broadcast_in_dim %253, %255, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x1xf32>
    %257 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %258 = stablehlo.concatenate %257, %c_29, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %259 = stablehlo.dynamic_broadcast_in_dim %cst_28, %258, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %260 = stablehlo.divide %256, %259 : tensor<?x1xf32>
    %261 = call @_var(%arg0, %252, %c_27) : (tensor<i32>, tensor<?x32xf32>, tensor<i32>) -> tensor<?x1xf32>
    %262 = stablehlo.reshape %arg3 : (tensor<32xf32>) -> tensor<1x32xf32>
    %263 = stablehlo.reshape %arg4 : (tensor<32xf32>) -> tensor<1x32xf32>
    %264 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %265 = stablehlo.concatenate %264, %c_29, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %266 = stablehlo.dynamic_broadcast_in_dim %cst_26, %265, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %267 = stablehlo.add %261, %266 : tensor<?x1xf32>
    %268 = stablehlo.rsqrt %267 : tensor<?x1xf32>
    %269 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %270 = stablehlo.concatenate %269, %c_33, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %271 = stablehlo.dynamic_broadcast_in_dim %268, %270, dims = [0, 1] : (tensor<?x1xf32>, tensor<2xi32>) -> tensor<?x32xf32>
    %272 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %273 = stablehlo.concatenate %272, %c_33, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %274 = stablehlo.dynamic_broadcast_in_dim %262, %273, dims = [0, 1] : (tensor<1x32xf32>, tensor<2xi32>) -> tensor<?x32xf32>
    %275 = stablehlo.multiply %271, %274 : tensor<?x32xf32>
    %276 = stablehlo.negate %260 : tensor<?x1xf32>
    %277 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %278 = stablehlo.concatenate %277, %c_33, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %279 = stablehlo.dynamic_broadcast_in_dim %276, %278, dims = [0, 1] : (tensor<?x1xf32>, tensor<2xi32>) -> tensor<?x32xf32>
    %280 = stablehlo.multiply %279, %275 : tensor<?x32xf32>
    %281 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %282 = stablehlo.concatenate %281, %c_33, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %283 = stablehlo.dynamic_broadcast_in_dim %263, %282, dims = [0, 1] : (tensor<1x32xf32>, tensor<2xi32>) -> tensor<?x32xf32>
    %284 = stablehlo.add %280, %283 : tensor<?x32xf32>
    %285 = stablehlo.multiply %252, %275 : tensor<?x32xf32>
    %286 = stablehlo.add %285, %284 : tensor<?x32xf32>
    %287 = stablehlo.dot_general %286, %arg5, contracting_dims = [1] x [0] : (tensor<?x32xf32>, tensor<32x8xf32>) -> tensor<?x8xf32>
    %288 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %289 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %290 = stablehlo.concatenate %289, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %291 = stablehlo.dynamic_broadcast_in_dim %288, %290, dims = [0, 1] : (tensor<1x8xf32>, tensor<2xi32>) -> tensor<?x8xf32>
    %292 = stablehlo.add %287, %291 : tensor<?x8xf32>
    return %292 : tensor<?x8xf32>
  }
  func.func private @_var(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x32xf32>, %arg2: tensor<i32>) -> tensor<?x1xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %c = stablehlo.constant dense<32> : tensor<1xi32>
    %cst_0 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %c_1 = stablehlo.constant dense<1> : tensor<1xi32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg1 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<?x32xf32>, tensor<f32>) -> tensor<?xf32>
    %1 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2 = stablehlo.concatenate %1, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %3 = stablehlo.dynamic_broadcast_in_dim %0, %2, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x1xf32>
    %4 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %5 = stablehlo.concatenate %4, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %6 = stablehlo.dynamic_broadcast_in_dim %cst_0, %5, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %7 = stablehlo.divide %3, %6 : tensor<?x1xf32>
    %8 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %9 = stablehlo.concatenate %8, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %10 = stablehlo.dynamic_broadcast_in_dim %7, %9, dims = [0, 1] : (tensor<?x1xf32>, tensor<2xi32>) -> tensor<?x32xf32>
    %11 = stablehlo.subtract %arg1, %10 : tensor<?x32xf32>
    %12 = stablehlo.multiply %11, %11 : tensor<?x32xf32>
    %13 = stablehlo.convert %arg2 : (tensor<i32>) -> tensor<f32>
    %14 = stablehlo.subtract %cst_0, %13 : tensor<f32>
    %15 = stablehlo.reduce(%12 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<?x32xf32>, tensor<f32>) -> tensor<?xf32>
    %16 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %17 = stablehlo.concatenate %16, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %18 = stablehlo.dynamic_broadcast_in_dim %15, %17, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x1xf32>
    %19 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %20 = stablehlo.concatenate %19, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %21 = stablehlo.dynamic_broadcast_in_dim %14, %20, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %22 = stablehlo.divide %18, %21 : tensor<?x1xf32>
    %23 = stablehlo.compare GT, %14, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %24 = call @_where(%arg0, %23, %22, %cst) : (tensor<i32>, tensor<i1>, tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
    return %24 : tensor<?x1xf32>
  }
  func.func private @_where(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<i1>, %arg2: tensor<?x1xf32>, %arg3: tensor<f32>) -> tensor<?x1xf32> {
    %c = stablehlo.constant dense<1> : tensor<1xi32>
    %0 = stablehlo.convert %arg3 : tensor<f32>
    %1 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2 = stablehlo.concatenate %1, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %3 = stablehlo.dynamic_broadcast_in_dim %0, %2, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %4 = stablehlo.select %arg1, %arg2, %3 : tensor<i1>, tensor<?x1xf32>
    return %4 : tensor<?x1xf32>
  }
}
